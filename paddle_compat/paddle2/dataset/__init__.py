"""paddle.dataset: Paddle 1.x's dataset readers over Paddle's own file formats, in Paddle's cache folder.

One module per dataset, named as in Paddle. Each holds the parser of its file format (the 2.x datasets in
paddle_compat/paddle2/vision/datasets and paddle_compat/text use the same parsers) and the 1.x reader creators; files
come from `paddle_compat.paddle2.utils.download.download` (Paddle's URL and md5, DATA_HOME/<module>/).
"""
