# docs/study-details.md, "Balancing phases": 16 nodes, cluster, torus and hypercube, random loads, seeds 1-3,
# ratios 10/1/0.1, the 10 variants, --lb-phase aligned and staggered (about 20 s). Prints the fastest
# variants per phase and ratio and the median staggered/aligned convergence-date ratio per variant.
#   python3 study/phase_check.py [HETLB=build/bin/hetlb]
import json, subprocess, collections, statistics, sys
H = sys.argv[1] if len(sys.argv) > 1 else 'build/bin/hetlb'
variants=[('besteffort',1,False),('besteffort',1,True),('besteffort',2,False),('besteffort',2,True),('besteffort',4,False),('besteffort',4,True),
          ('makhoul',1,False),('makhoul',1,True),('simple',1,False),('simple',1,True)]
rows=[]
for topo in ['torus','hypercube']:
  for ratio in [10,1,0.1]:
    for seed in [1,2,3]:
      for phase in ['aligned','staggered']:
        for (st,k,v) in variants:
          args=[H,'simulate','diffusion','--nodes','16','--topology',topo,'--initial','random','--seed',str(seed),'--ratio',str(ratio),
                '--strategy',st,'--k',str(k),'--lb-phase',phase,'--format','json']+(['--virtual-load'] if v else [])
          out=subprocess.run(args,capture_output=True,text=True)
          j=json.loads(out.stdout)
          rows.append(dict(topo=topo,ratio=ratio,seed=seed,phase=phase,variant=f"{st}{' k='+str(k) if st=='besteffort' else ''}{' +virtual' if v else ''}",
                           date=j['max_convergence_date'] if j['converged'] else None))
      print(topo,ratio,file=sys.stderr,flush=True)
conf=collections.defaultdict(dict)
for r in rows: conf[(r['topo'],r['ratio'],r['seed'],r['phase'])][r['variant']]=r['date']
wins=collections.defaultdict(lambda: collections.Counter())
ratio_ds=collections.defaultdict(list)
same_winner=0; total=0
for (t,ra,s,ph),d in conf.items():
    valid={v:x for v,x in d.items() if x is not None}
    best=min(valid.values()); w=[v for v,x in valid.items() if x<=best*1.01]
    for v in w: wins[(ph,ra)][v]+=1
    if ph=='aligned':
        d2=conf[(t,ra,s,'staggered')]
        for v in d:
            if d[v] and d2[v]: ratio_ds[(ra,v)].append(d2[v]/d[v])
        v2={v:x for v,x in d2.items() if x is not None}; b2=min(v2.values())
        w1=min(valid,key=valid.get); w2=min(v2,key=v2.get); total+=1; same_winner+= w1==w2
print("same fastest variant aligned vs staggered:",same_winner,"of",total)
for ph in ['aligned','staggered']:
  for ra in [10,1,0.1]:
    print(ph,ra,wins[(ph,ra)].most_common(4))
vs=sorted({v for (_,v) in ratio_ds})
print("| variant | ratio 10 | ratio 1 | ratio 0.1 |")
for v in vs:
    print("|",v,"|"," | ".join(f"{statistics.median(ratio_ds[(ra,v)]):.2f}" for ra in [10,1,0.1]),"|")
