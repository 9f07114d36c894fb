"""The papers' examples the tests are built on."""

from __future__ import annotations

# Terrovitis, Mamoulis & Kalnis (VLDB 2008), Fig. 2
FIG2_TX = [["a1", "b1", "b2"], ["a2", "b1"], ["a2", "b1", "b2"], ["a1", "a2", "b2"]]
AB_TREE = [("A", "ALL"), ("B", "ALL"), ("a1", "A"), ("a2", "A"), ("b1", "B"), ("b2", "B")]
# the same paper: Fig. 2 generalized by the cut {A, b1, b2}, 2^2-anonymous
FIG2_CUT_A = {
    "0": ["A", "b1", "b2"],
    "1": ["A", "b1"],
    "2": ["A", "b1", "b2"],
    "3": ["A", "b2"],
}

# He & Naughton (VLDB 2009), Table 2
TABLE2_TX = {
    "T1": ["a1"],
    "T2": ["a1", "a2"],
    "T3": ["b1", "b2"],
    "T4": ["b1", "b2"],
    "T5": ["a1", "a2", "b2"],
    "T6": ["a1", "a2", "b2"],
    "T7": ["a1", "a2", "b1", "b2"],
}

# Clump (SECRYPT 2010): Food -> {Fruit, Meat, Dairy}
FOOD_TREE = [
    ("Fruit", "Food"), ("Meat", "Food"), ("Dairy", "Food"),
    ("Orange", "Fruit"), ("Apple", "Fruit"), ("Banana", "Fruit"),
    ("Beef", "Meat"), ("Chicken", "Meat"),
    ("Milk", "Dairy"), ("Cheese", "Dairy"), ("Butter", "Dairy"),
]  # fmt: skip
