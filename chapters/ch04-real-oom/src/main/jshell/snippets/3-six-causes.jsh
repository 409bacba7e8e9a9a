// 3. The six causes: stage one until it OOMs, and read its message with triage
var o = Causes.named("other-process").run(Causes.defaultPolicy(), 1);
o.story()
o.message()
Triage.of(o.pasted()).cause()
Causes.all().stream().map(s -> s.name()).toList()
