"""The anonymization algorithms, one module per family, each a driver that decides in Python
while its named statements count in SQL. What they are called, which model each guarantees and
which options each takes is declared in `catalog.py`."""
