package vramlab.judge;

/** The checks the contest makes on every event, as CS:APP's malloc lab driver does on its traces. */
public enum Check {
    ALIGNED("aligned", "a block's address is a multiple of 512 B"),
    SIZE("size", "a block is at least its request"),
    OVERLAP("overlap", "live blocks never overlap"),
    SEGMENT("segment", "every live block lies in memory the allocator got from the driver (mapped, with access)"),
    FREE("free", "a free of a live block is accepted, and the block is no longer live"),
    CALL("call", "an entry throws nothing but the out-of-memory errors (the driver's, the caching allocator's, the buddy's)"),
    LEAK("leak", "once every block is freed, empty_cache gives every byte back to the driver");

    private final String word;
    private final String rule;

    Check(String word, String rule) {
        this.word = word;
        this.rule = rule;
    }

    public String word() { return word; }

    public String rule() { return rule; }
}
