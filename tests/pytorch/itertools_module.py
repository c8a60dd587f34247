# Python's itertools: lazy iterators (count/cycle/repeat end under islice and zip),
# the combinatoric ones in Python's order, groupby, tee, chain.from_iterable.
import itertools
from itertools import islice, count, cycle, repeat
print(list(itertools.product([1, 2, 3], [4, 5])))
print(list(itertools.product('ab', repeat=2)))
print(list(itertools.product()))
print(list(itertools.product([1], [])))
print(list(itertools.chain([1, 2], (3,), 'ab')))
print(list(itertools.chain.from_iterable([[1], [2, 3], []])))
print(list(islice(count(), 5)), list(islice(count(10, 2.5), 3)))
print(list(islice('abcdefg', 2, None, 2)), list(islice('abcdefg', 2, 4)), list(islice(range(10), 0, 9, 4)))
print(list(islice(cycle('ab'), 5)), list(repeat(7, 3)), list(zip(repeat('x'), [1, 2])))
print(list(zip(count(1), 'abc')))
print(list(itertools.accumulate([1, 2, 3, 4])), list(itertools.accumulate([1, 2, 3], lambda a, b: a * b, initial=10)))
print(list(itertools.accumulate([])), list(itertools.accumulate([], initial=5)))
print(list(itertools.combinations([1, 2, 3, 4], 2)), list(itertools.combinations('ab', 3)), list(itertools.combinations('ab', 0)))
print(list(itertools.combinations_with_replacement('abc', 2)), list(itertools.combinations_with_replacement('', 0)))
print(list(itertools.permutations([1, 2, 3])), list(itertools.permutations('abcd', 2)))
print(list(itertools.zip_longest('ab', 'xyz', fillvalue='-')), list(itertools.zip_longest([1], [])))
print([(k, list(g)) for k, g in itertools.groupby('aabcccb')])
print([(k, list(g)) for k, g in itertools.groupby([1, 3, 2, 4, 5], key=lambda x: x % 2)])
print(list(itertools.starmap(pow, [(2, 3), (3, 2)])))
print(list(itertools.takewhile(lambda x: x < 3, [1, 2, 5, 1])), list(itertools.dropwhile(lambda x: x < 3, [1, 2, 5, 1])))
print(list(itertools.compress('abcd', [1, 0, 1, 1])), list(itertools.compress(count(), [1, 0, 1])))
print(list(itertools.pairwise('abcd')), list(itertools.pairwise([1])))
a, b = itertools.tee(iter([1, 2, 3]))
print(next(a), list(b), list(a))
x, y, z = itertools.tee(count(), 3)
print(next(x), next(x), next(y), next(z), next(z), next(z))
def gen():
    for i in range(3):
        print("made", i)
        yield i
g = itertools.islice(gen(), 2)
print("before")
print(list(g))
print(sum(itertools.islice(count(), 100)))
for i, c in zip(itertools.count(), 'xy'):
    print(i, c)
print(list(map(lambda p: p[0] * p[1], itertools.product(range(3), range(2)))))
print(len(list(itertools.permutations(range(5)))))
