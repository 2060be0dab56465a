if __name__ == "__main__":  # python -m paddle.distributed.launch_ps --worker_num 2 --server_num 1 script.py
    from paddle_compat.paddle2.distributed.launch_ps import main

    main()
