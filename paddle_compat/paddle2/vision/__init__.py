"""paddle.vision: transforms (numpy / PIL / Tensor images, Paddle 2.4 semantics)."""
