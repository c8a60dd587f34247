# What standalone PyTorch scripts do around their work: a main guard, the sys
# module (version checks, stdout writes, sys.exit caught by SystemExit), and
# print's file= and flush= keywords (tests/cli.rs checks stderr and argv).
import sys

import torch


def main():
    x = torch.arange(6.0).reshape(2, 3)
    print("sum", x.sum().item(), flush=True)
    print("to stdout", file=sys.stdout)
    n = sys.stdout.write("written without a newline|")
    sys.stdout.flush()
    print(n)
    print(sys.version_info >= (3, 8), sys.version_info[0], sys.version_info.major == 3)
    print((1, 2) < (1, 3), [1, 2, 3] > [1, 2], (2,) <= (1, 9))
    print(type(sys.argv).__name__, len(sys.argv) >= 1, sys.maxsize > 2**31)
    print(sys.platform in ("linux", "darwin", "win32"), sys.getrecursionlimit() > 0)
    for code in (None, 0, 3, "message"):
        try:
            sys.exit(code)
        except SystemExit as e:
            print("SystemExit", type(e).__name__, e.code)
    try:
        sys.exit(1)
    except Exception:
        print("not caught by Exception")
    except BaseException:
        print("caught by BaseException")
    return 0


if __name__ == "__main__":
    print(__name__)
    main()
