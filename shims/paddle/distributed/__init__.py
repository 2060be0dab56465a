from paddle_compat._export import populate

populate(__name__, globals())
