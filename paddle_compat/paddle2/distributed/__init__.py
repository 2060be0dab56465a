"""`paddle.distributed` on torch.distributed: environment mapping (env.py), collectives (comm.py), spawn,
the `paddle.distributed.launch` front to torchrun (launch.py), dygraph DataParallel and SyncBatchNorm.

The cross-process work itself lives in paddle_compat/engine/parallel/collective.py, shared with static data
parallelism. README section "Several processes and machines" shows how to launch.

Paddle 2.6's auto-parallel API (ProcessMesh, Shard / Replicate / Partial, shard_tensor, reshard, shard_layer,
shard_optimizer) runs on torch's DTensor (auto_parallel.py); to_static / Strategy in auto_static.py, the
distributed checkpoint (save_state_dict / load_state_dict) in checkpoint.py, split / paddle.distributed.io /
launch() in model_parallel.py.
"""
