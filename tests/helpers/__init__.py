"""What the tests share, so that no test module imports another: the papers' examples and
tiny stores (`papers`, `stores`), the command line run in-process (`cli`), plain-Python
references (`reference`), hypothesis strategies (`strategies`), users' own files (`user_files`)
and the golden Spark translations (`golden`)."""
