"""paddle.version, paddle.sysconfig, paddle.utils helpers and the paddle.jit settings: facts about the runtime and
switches that configure it."""
