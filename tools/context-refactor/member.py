# member.py FILE CLASS [MEMBER]: vm arg tokens inside CLASS's body and CLASS:: definitions -> MEMBER (vm_)
import re,sys,os
os.chdir('/work/wt-h-context')
f,cls=sys.argv[1],sys.argv[2]; mem=sys.argv[3] if len(sys.argv)>3 else 'vm_'
tok=re.compile(r'(?<=[(,] )vm(?=[,)])|(?<=\()vm(?=[,)])')
src=open(f).read().split('\n'); cur=False; n=0
for i,l in enumerate(src):
    if re.match(r'^\S',l) and not l.startswith('}') and not l.startswith('//') and not l.startswith('#'):
        cur = bool(re.match(r'^(class|struct) '+cls+r'\b',l) or re.match(r'^(\S.*)?\b'+cls+r'::~?\w+\(',l))
    if cur and 'VM& vm' not in l:
        m=tok.sub(mem,l)
        if m!=l: src[i]=m; n+=1
    if l.startswith('}'): cur=False
open(f,'w').write('\n'.join(src)); print(f,cls,n)
