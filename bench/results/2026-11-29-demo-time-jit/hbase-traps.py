import re, sys, datetime, collections
log, *wins = sys.argv[1:]
txt = open(log, errors='replace').read()
t0 = int(re.search(r"time_ms='(\d+)'", txt).group(1)) / 1000
windows = []
for w in wins:
    for line in open(w):
        r, a, b = line.split()
        if not r.startswith('run'): continue
        f = lambda s: datetime.datetime.strptime(s, '%Y-%m-%dT%H:%M:%S.%fZ').replace(tzinfo=datetime.timezone.utc).timestamp()
        windows.append((f(a), f(b), r))
windows.sort()
# methods: id -> name
pat = re.compile(r"<uncommon_trap thread='\d+' reason='([^']+)' action='([^']+)'[^>]*?stamp='([\d.]+)'>\s*<jvms bci='(\d+)' method='([^']+)'")
def phase(t):
    for a, b, r in windows:
        if a - 1 <= t <= a + 3: return r + ' start'
        if a + 3 < t < b - 0.5: return r + ' mid'
        if b - 0.5 <= t <= b + 2: return r + ' end'
    if windows and t < windows[0][0]: return 'before'
    return 'between/after'
by = collections.defaultdict(list)
for m in pat.finditer(txt):
    reason, action, stamp, bci, meth = m.groups()
    t = t0 + float(stamp)
    ph = phase(t)
    by[ph].append((reason, action, meth.split(' ')[0], bci))
for ph in sorted(by, key=lambda p: (p.split()[0], p)):
    c = collections.Counter((r, a) for r, a, _, _ in by[ph])
    print(ph, len(by[ph]), dict(c))
