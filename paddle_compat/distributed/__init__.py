"""`paddle.distributed` on torch.distributed: environment mapping (env.py), collectives (comm.py), spawn,
the `paddle.distributed.launch` front to torchrun (launch.py), dygraph DataParallel and SyncBatchNorm.

The cross-process work itself lives in paddle_compat/parallel/collective.py, shared with static data
parallelism. README section "Several processes and machines" shows how to launch.
"""
