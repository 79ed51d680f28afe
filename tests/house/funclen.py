"""Lines per C function under a folder: from the first line of its
signature to its closing brace. Prints those over the limit; exits 1 when
there are any. Usage: funclen.py DIR [LIMIT]"""
import os
import re
import sys
res=[]
for root,_,fs in os.walk(sys.argv[1]):
  for f in fs:
    if not f.endswith('.c'): continue
    p=os.path.join(root,f); L=open(p,encoding='utf-8',errors='replace').read().split('\n')
    depth=0; start=None; sig=None
    for i,line in enumerate(L):
      s=re.sub(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'','""',line)
      s=re.sub(r'//.*','',s)
      for ch in s:
        if ch=='{':
          if depth==0 and re.search(r'\)\s*\{\s*$',s):
            k=i
            while k>0 and (L[k][:1] in (' ','\t')): k-=1
            start=k; sig=L[k].strip()
          depth+=1
        elif ch=='}':
          depth-=1
          if depth==0 and start is not None:
            res.append((i-start+1,p,start+1,sig[:70])); start=None
lim=int(sys.argv[2]) if len(sys.argv)>2 else 120
over=[r for r in sorted(res,reverse=True) if r[0]>lim]
for n,p,l,h in over: print(f'{p}:{l}: {n} lines: {h}')
print(len(res),'functions,',len(over),'over',lim,'lines')
sys.exit(1 if over or len(res)<100 else 0)
