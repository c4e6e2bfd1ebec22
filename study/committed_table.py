"""What the study's table scripts share: reading a results file that no campaign is writing, and printing
a table or checking that a page (docs/study.md) holds it as it is now."""
import fcntl
import sys


def rows_file(path, check, script):
    """`path` opened for reading. With `check`, exits 77 (the test's skip) while a campaign holds the
    file's lock: the rows it is appending are not committed yet."""
    f = open(path)
    if check is not None:
        try:
            fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            print(f"{script}: {path} is in use by a running campaign; nothing checked", file=sys.stderr)
            sys.exit(77)
    return f


def print_or_check(table, check, script, what, command):
    """Prints `table`, or with `check` (a page) exits 1 naming `what` unless the page holds it."""
    if check is None:
        print(table, end="")
    elif table not in open(check).read():
        sys.exit(f"{script}: {check} does not hold {what} as the results give it; paste the output of: "
                 f"python3 study/{command}")


def print_or_check_lines(lines, check, script):
    """Prints `lines`, or with `check` (a page) exits 1 naming the first line the page does not hold."""
    if check is None:
        print("\n".join(lines))
        return
    held = open(check).read().splitlines()
    missing = [line for line in lines if line not in held]
    if missing:
        sys.exit(f"{script}: {check} does not hold, as the runs give it: {missing[0]}; paste the output of: "
                 f"python3 study/{script}")
