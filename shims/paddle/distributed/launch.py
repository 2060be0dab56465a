from paddle_compat._export import populate

populate("paddle.distributed.launch", globals())

if __name__ == "__main__":  # python -m paddle.distributed.launch --nproc_per_node N script.py
    from paddle_compat.paddle2.distributed.launch import main

    main()
