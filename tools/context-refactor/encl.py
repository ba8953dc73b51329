import re,sys,collections,os
os.chdir('/work/wt-h-context')
errs=[]
for l in open('build/errs.txt'):
    m=re.match(r"(/work/wt-h-context/(?:build/\w+-include/)?(\S+?)):(\d+):(\d+): error: expected primary-expression before ‘[,)]’",l)
    if m:
        f=m.group(2); errs.append((f,int(m.group(3)),int(m.group(4))))
errs=sorted(set(errs))
groups=collections.OrderedDict()
cache={}
for f,ln,col in errs:
    src=cache.setdefault(f,open(f).read().split('\n'))
    line=src[ln-1]
    if line[col-3:col-1]!='vm': print('??',f,ln,col,line); continue
    # enclosing function header
    h=None
    for j in range(ln-1,-1,-1):
        t=src[j]
        if t and not t[0].isspace() and t[0] not in '}/#' and '(' in t and not t.startswith('namespace'):
            h=(j,t); break
    groups.setdefault((f,h),[]).append((ln,col))
for (f,h),v in groups.items():
    print(f, h[0]+1 if h else None, (h[1][:100] if h else None), len(v))
