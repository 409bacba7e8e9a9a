// 5. Four ways to serve, on a short workload (the lab's has 300 requests), and the reference points
ReferencePoints.measure(1)
var w = new Workload(1, 60, 0.15, LengthDist.uniform(32, 1024), LengthDist.uniform(32, 512), 64);
var c = new Comparison(w, ModelShape.LLAMA_3_8B, gib(2), List.of(KvContender.buddy(), KvContender.paged(16)));
var rs = c.run(false);
System.out.print(c.table(rs))
