package vramlab.ch06;

/** One inference request: when it arrives (a step), its prompt and how many tokens it will generate. */
public record Request(int id, long arrival, long prompt, long output) {
    /** Tokens of KV cache it holds when it finishes. */
    public long finalTokens() { return prompt + output; }
}
