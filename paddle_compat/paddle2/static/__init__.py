"""The 2.x `paddle.static` names that are not engine code: mixed precision, metrics and `paddle.static.nn`."""
