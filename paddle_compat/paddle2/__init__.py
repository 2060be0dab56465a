"""The Paddle 2.x surface (`paddle.nn`, `paddle.optimizer`, `paddle.io`, `paddle.static`, `paddle.vision`, ...):
Layers, optimizers, data loading and the 2.x front ends over the shared engine (paddle_compat/engine). The fluid 1.x
surface (paddle_compat/fluid) adapts several of these objects with 1.8's names and defaults."""
