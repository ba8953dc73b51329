import re,glob,os
os.chdir('/work/wt-h-context')
n=0
for f in [f for d in ['vm','io','measure','compiler','repl','tests'] for f in glob.glob(d+'/**/*', recursive=True) if f.endswith(('.cpp','.h'))]:
    src=open(f).read().split('\n'); ch=False
    for i,l in enumerate(src):
        m=re.search(r'\(VM&(\s*/\*\s*\w*\s*\*/)?(?=[,)])',l)
        if not m: continue
        ind=len(l)-len(l.lstrip())
        body=l[l.find('{'):] if '{' in l else ''
        if not l.rstrip().endswith('}'):
            for j in range(i+1,len(src)):
                body+=src[j]+'\n'
                if src[j].startswith(' '*ind+'}') and (len(src[j])==ind+1 or src[j][ind+1] in ';,)'): break
        if re.search(r'\bvm\b(?!::)',body):
            src[i]=l[:m.start()]+'(VM& vm'+l[m.end():]; ch=True; n+=1
    if ch: open(f,'w').write('\n'.join(src))
print('renamed',n)
