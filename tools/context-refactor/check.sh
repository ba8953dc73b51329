#!/bin/bash
# check.sh [filter]: -fsyntax-only on every TU (or those matching filter), errors to build/errs.txt
cd /work/wt-h-context
python3 - "$@" <<'PY' > build/cmds.txt
import json,sys
flt=sys.argv[1] if len(sys.argv)>1 else ''
for c in json.load(open('build/compile_commands.json')):
    if flt and flt not in c['file']: continue
    cmd=c['command']
    import re
    cmd=re.sub(r' -o \S+ -c ',' -fsyntax-only -fmax-errors=0 ',cmd).replace(' -O2 -g',' ')
    print('cd '+c['directory']+' && '+cmd)
PY
tr '\n' '\0' < build/cmds.txt | xargs -0 -P2 -I{} bash -c '{}' > build/errs.txt 2>&1
grep -c "error:" build/errs.txt
