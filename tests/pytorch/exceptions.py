import torch
try:
    raise ValueError("bad value")
except ValueError as e:
    print(type(e).__name__, e, e.args, repr(e))
    print(f"error: {e}", str(e))
try:
    torch.ones(2) + torch.ones(3)
except RuntimeError as e:
    print("caught", type(e).__name__)
try:
    {}["k"]
except KeyError as e:
    print(type(e).__name__)
try:
    [1][3]
except IndexError as e:
    print(type(e).__name__)
try:
    1 / 0
except ZeroDivisionError as e:
    print(type(e).__name__)
try:
    try:
        raise RuntimeError("inner")
    except RuntimeError as e:
        raise e
except Exception as e2:
    print("re-raised", e2)
try:
    raise NotImplementedError
except NotImplementedError as e:
    print(type(e).__name__, e.args)
try:
    int("x")
except ValueError as e:
    print(type(e).__name__)
