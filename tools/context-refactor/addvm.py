#!/usr/bin/env python3
# addvm.py NAME... : insert `vm, ` (calls) or `VM& vm, ` (top-level declarations) after NAME( in all sources.
import re, sys, glob, os
os.chdir('/work/wt-h-context')
args=sys.argv[1:]
only=None
if args and args[0]=='-f': only=args[1]; args=args[2:]
names=args
files = [f for d in ['vm','io','measure','compiler','repl','tests'] for f in glob.glob(d+'/**/*', recursive=True)
         if f.endswith(('.cpp','.h','.inc')) and (only is None or f==only)]
pat = re.compile(r'(?<![\w.])((?:vm::)?)(' + '|'.join(map(re.escape, names)) + r')(<[^()]*?>)?\(')
total = 0
for f in files:
    src = open(f).read().split('\n')
    changed = False
    for i, line in enumerate(src):
        out = []; pos = 0
        cpos = line.find('//')
        for m in pat.finditer(line):
            s = m.start()
            if cpos >= 0 and s > cpos: continue
            if s >= 1 and line[s-1] in ':>' and not m.group(1):
                # `::name(` or `->name(`, `>name(` (not ours) -- but allow `alloc<..>` handled via group 3
                continue
            if s >= 2 and line[s-2:s] == '->': continue
            rest = line[m.end():]
            if re.match(r'\s*(vm\b|VM&|\*this\b|VM &)', rest): continue
            decl = (not line[:1].isspace()) and line[:1] not in ('', '}', '#') and not line.startswith('return') \
                   and line.find('(') == m.end()-1 and not re.match(r'\s*(if|for|while|switch)\b', line)
            ins = ('VM& vm' if decl else 'vm') + ('' if rest.lstrip().startswith(')') else ', ')
            out.append(line[pos:m.end()]); out.append(ins); pos = m.end(); total += 1
        if out:
            out.append(line[pos:]); src[i] = ''.join(out); changed = True
    if changed:
        open(f, 'w').write('\n'.join(src))
print('inserted', total)
