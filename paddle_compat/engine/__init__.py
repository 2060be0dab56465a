"""The shared engine: what the fluid 1.x surface (paddle_compat/fluid) and the 2.x surface (paddle_compat/paddle2)
both run on. Layers, lowest first (each imports only those below it; pyproject.toml's import-linter contract
checks it): core (dtypes, places, errors, mode, flags), framework (Tensor, Program / Variable, the op registry,
dispatch), ops (op bodies), passes (BuildStrategy passes), static (Executor, CompiledProgram, backward,
program and checkpoint files), parallel (data parallelism, torch.distributed glue)."""
