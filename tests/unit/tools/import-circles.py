"""Import circles between the Java files under ROOT/*/src/main/java: one line per circle, the
files in it and their import edges; exit 1 when there is one. Only import statements count (a
package's own files use each other freely)."""
import collections
import glob
import os
import re
import sys

root = sys.argv[1]
classes = {}
for path in glob.glob(os.path.join(root, '*/src/main/java/**/*.java'), recursive=True):
    text = open(path, encoding='utf-8').read()
    package = re.search(r'^package ([\w.]+);', text, re.M).group(1)
    classes[package + '.' + os.path.basename(path)[:-5]] = text

edges = collections.defaultdict(set)
for name, text in classes.items():
    for imported in re.findall(r'^import (?:static )?([\w.]+)', text, re.M):
        parts = imported.split('.')
        for i in range(len(parts), 0, -1):  # a nested type's import names its file's class
            target = '.'.join(parts[:i])
            if target in classes and target != name:
                edges[name].add(target)
                break

# Tarjan's strongly connected components
index, low, stack, on_stack, circles, counter = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(100000)


def visit(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on_stack.add(v)
    for w in edges[v]:
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on_stack:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        component = []
        while True:
            w = stack.pop()
            on_stack.discard(w)
            component.append(w)
            if w == v:
                break
        if len(component) > 1:
            circles.append(sorted(component))


for v in list(classes):
    if v not in index:
        visit(v)
for circle in circles:
    print('circle: ' + ', '.join(circle) + ' (' + '; '.join(
        a + ' -> ' + b for a in circle for b in sorted(edges[a] & set(circle))) + ')')
print('%d files, %d import circles' % (len(classes), len(circles)))
sys.exit(1 if circles else 0)
