

# torch.utils.benchmark's Timer and Measurement as PyTorch writes them
# (torch/utils/benchmark/utils/timer.py and common.py): a statement timed in
# blocks through timeit, with PyTorch's block sizes, statistics and repr.

import timeit as _bench_timeit


def _bench_percentile(xs, q):
    # numpy.percentile's default (linear between the closest ranks), on
    # sorted values.
    pos = (len(xs) - 1) * q / 100
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def _bench_indent(text):
    return "\n".join("  " + line for line in text.split("\n"))


def _bench_dedent(text):
    # textwrap.dedent: the whitespace every non-blank line starts with, removed.
    lines = text.split("\n")
    margins = [len(l) - len(l.lstrip()) for l in lines if l.strip()]
    cut = min(margins) if margins else 0
    return "\n".join(l[cut:] if l.strip() else "" for l in lines)


def _bench_clean(code):
    code = _bench_dedent(code)
    if code and code[0] == "\n":
        code = code[1:]
    return code.rstrip()


def _bench_unit(t):
    # PyTorch's select_unit: the unit that puts t between 1 and 1000.
    exponent = int(math.log10(t) // 3)
    if exponent == -3:
        return "ns", 1e-9
    if exponent == -2:
        return "us", 1e-6
    if exponent == -1:
        return "ms", 1e-3
    return "s", 1.0


class TaskSpec:
    def __init__(self, stmt, setup, global_setup="", label=None, sub_label=None, description=None, env=None,
                 num_threads=1):
        self.stmt = stmt
        self.setup = setup
        self.global_setup = global_setup
        self.label = label
        self.sub_label = sub_label
        self.description = description
        self.env = env
        self.num_threads = num_threads

    @property
    def title(self):
        if self.label is not None:
            return self.label + (f": {self.sub_label}" if self.sub_label else "")
        if "\n" not in self.stmt:
            return self.stmt + (f": {self.sub_label}" if self.sub_label else "")
        return f"stmt:{f' ({self.sub_label})' if self.sub_label else ''}\n{_bench_indent(self.stmt)}"

    def setup_str(self):
        if self.setup == "pass" or not self.setup:
            return ""
        if "\n" in self.setup:
            return f"setup:\n{_bench_indent(self.setup)}"
        return f"setup: {self.setup}"

    def summarize(self):
        sections = [self.title, self.description or "", self.setup_str()]
        return "\n".join([f"{i}\n" if "\n" in i else i for i in sections if i])


class Measurement:
    def __init__(self, number_per_run, raw_times, task_spec, metadata=None):
        self.number_per_run = number_per_run
        self.raw_times = raw_times
        self.task_spec = task_spec
        self.metadata = metadata
        # TaskSpec's fields, read through the measurement as in PyTorch.
        self.stmt = task_spec.stmt
        self.setup = task_spec.setup
        self.label = task_spec.label
        self.sub_label = task_spec.sub_label
        self.description = task_spec.description
        self.num_threads = task_spec.num_threads

    @property
    def times(self):
        return [t / self.number_per_run for t in self.raw_times]

    def _sorted(self):
        return sorted(self.times)

    @property
    def median(self):
        return _bench_percentile(self._sorted(), 50)

    @property
    def mean(self):
        xs = self.times
        return sum(xs) / len(xs)

    @property
    def iqr(self):
        xs = self._sorted()
        return _bench_percentile(xs, 75) - _bench_percentile(xs, 25)

    @property
    def significant_figures(self):
        xs = self._sorted()
        n = len(xs)
        middle = xs[n // 4:math.ceil(3 * n / 4)]
        mu = sum(middle) / len(middle)
        std = math.sqrt(sum((x - mu) ** 2 for x in middle) / len(middle))
        interval = max(1.645 * std / math.sqrt(len(middle)), 25e-9)
        figures = int(math.floor(math.log10(self.median / interval)))
        return min(max(figures, 1), 4)

    def meets_confidence(self, threshold=0.1):
        return self.iqr / self.median < threshold

    def _warnings(self):
        if self.meets_confidence(0.25) and self.meets_confidence(0.1):
            return ""
        why = ("This could indicate system fluctuation." if self.meets_confidence(0.25)
               else "This suggests significant environmental influence.")
        relative = self.iqr / self.median * 100
        return f"  WARNING: Interquartile range is {relative:.1f}% of the median measurement.\n           {why}"

    @property
    def has_warnings(self):
        return self._warnings() != ""

    @property
    def title(self):
        return self.task_spec.title

    def __repr__(self):
        xs = self._sorted()
        n = len(xs)
        median = self.median
        unit, scale = _bench_unit(median)
        p25 = _bench_percentile(xs, 25)
        p75 = _bench_percentile(xs, 75)
        threads = self.num_threads
        lines = [
            f"<torch.utils.benchmark.utils.common.Measurement object at {hex(id(self))}>",
            self.task_spec.summarize(),
            f"  {'Median: ' if n > 1 else ''}{median / scale:.2f} {unit}",
        ]
        if n >= 4:
            lines.append(f"  IQR:    {(p75 - p25) / scale:.2f} {unit} ({p25 / scale:.2f} to {p75 / scale:.2f})")
        lines.append(f"  {n} measurement{'s' if n > 1 else ''}, {self.number_per_run} runs "
                     f"{'per measurement,' if n > 1 else ','} {threads} thread{'s' if threads > 1 else ''}")
        lines.append(self._warnings())
        return "\n".join(lines).strip()


class Timer:
    def __init__(self, stmt="pass", setup="pass", global_setup="", timer=None, globals=None, label=None,
                 sub_label=None, description=None, env=None, num_threads=1, language="python"):
        if not isinstance(stmt, str):
            raise ValueError("Currently only a `str` stmt is supported.")
        if language not in ("python", "py"):
            raise ValueError(f"tsh's Timer times Python statements, not language `{language}`.")
        if global_setup:
            raise ValueError(f"global_setup is C++ only, got `{global_setup}`. Most likely this code can simply "
                             "be moved to `setup`.")
        self._globals = dict(globals) if globals else {}
        self._stmt = _bench_clean(stmt)
        self._setup = _bench_clean(setup)
        self._task_spec = TaskSpec(self._stmt, self._setup, global_setup, label, sub_label, description, env,
                                   num_threads)

    def _timeit(self, number):
        return max(_bench_timeit.timeit(self._stmt, self._setup, number=number, globals=self._globals), 1e-9)

    def _in_threads(self, work):
        # PyTorch times with the Timer's thread count (1 unless given). tsh's
        # kernel threads are fixed once started (torch.set_num_threads), so
        # it times with the session's count, and num_threads is recorded.
        return work()

    def timeit(self, number=1000000):
        def work():
            self._timeit(max(int(number // 100), 2))
            return Measurement(number, [self._timeit(number)], self._task_spec)
        return self._in_threads(work)

    def _estimate_block_size(self, min_run_time):
        def work():
            overheads = sorted([self._timeit(0) for _ in range(5)])
            overhead = overheads[2]
            number = 1
            while True:
                time_taken = self._timeit(number)
                if overhead / time_taken <= 1e-4 and time_taken >= min_run_time / 1000:
                    break
                if time_taken > min_run_time:
                    break
                if number * 10 > 2147483647:
                    break
                number *= 10
            return number
        return self._in_threads(work)

    def _measure(self, number, stop, min_run_time, max_run_time, callback):
        def work():
            total = 0.0
            can_stop = False
            times = []
            while total < min_run_time or not can_stop:
                spent = self._timeit(number)
                times.append(spent)
                total += spent
                if callback:
                    callback(number, spent)
                can_stop = stop(times)
                if max_run_time and total > max_run_time:
                    break
            return times
        return self._in_threads(work)

    def blocked_autorange(self, callback=None, min_run_time=0.2):
        number = self._estimate_block_size(min_run_time)
        times = self._measure(number, lambda times: True, min_run_time, None, callback)
        return Measurement(number, times, self._task_spec)

    def adaptive_autorange(self, threshold=0.1, min_run_time=0.01, max_run_time=10.0, callback=None):
        number = self._estimate_block_size(0.05)

        def stop(times):
            if len(times) > 3:
                return Measurement(number, times, self._task_spec).meets_confidence(threshold)
            return False

        times = self._measure(number, stop, min_run_time, max_run_time, callback)
        return Measurement(number, times, self._task_spec)
