// 2. The same workload under SimExp, the toy's expandable twin: freed pages go back at once
var exp = new SimExp(mib(40));
var fours = new ArrayList<SimExp.Mapping>();
for (int i = 0; i < 4; i++) { fours.add(exp.alloc(mib(3) + 1)); exp.alloc(mib(5) + 1); }
readable(exp.mapped())
fours.forEach(exp::free);
readable(exp.mapped())
var p = exp.alloc(mib(8));
readable(p.offset())
readable(exp.mapped())
