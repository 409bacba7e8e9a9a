package vramlab.workload;

/**
 * A decoder-style transformer's shape, for the sizes of its tensors.
 *
 * @param layers transformer layers L
 * @param hidden hidden size h
 * @param heads  attention heads a
 * @param ffn    the MLP's inner size (4h for GPT and BERT; 11008 for Llama-2-7B)
 * @param vocab  vocabulary size V
 */
record Transformer(int layers, long hidden, long heads, long ffn, long vocab) {
    /** GPT-2 medium, 345M parameters (Radford et al. 2019, Table 2: 24 layers, d_model 1024). */
    static final Transformer GPT2_MEDIUM = new Transformer(24, 1024, 16, 4096, 50257);
    /** BERT-base, 110M parameters (Devlin et al. 2019, section 3: L=12, H=768, A=12; vocab 30522). */
    static final Transformer BERT_BASE = new Transformer(12, 768, 12, 3072, 30522);
    /** Llama-2-7B (Touvron et al. 2023; the model's config.json: 32 layers, 4096, 32 heads, 11008, 32000). */
    static final Transformer LLAMA2_7B = new Transformer(32, 4096, 32, 11008, 32000);

    /** One layer's weight tensors, in parameters: Q, K, V, output, the MLP's (two or three), two norms. */
    long[] layerWeights() {
        long h = hidden;
        return ffn == 11008
                ? new long[] {h * h, h * h, h * h, h * h, h * ffn, h * ffn, ffn * h, h, h}
                : new long[] {3 * h * h + 3 * h, h * h + h, h * ffn + ffn, ffn * h + h, 2 * h, 2 * h};
    }

    /**
     * The tensors one layer's forward pass keeps for the backward pass, in bytes, with 16-bit
     * activations and no recomputation: Korthikanti et al. 2022, "Reducing Activation
     * Recomputation in Large Transformer Models", section 4.1: attention block 11sbh + 5as^2b,
     * MLP 19sbh, two layer norms 4sbh, in all {@code sbh(34 + 5as/h)}. Listed as the paper
     * counts them (the MLP as GPT's 4h; a wider MLP is not rescaled: a simplification).
     */
    long[] layerActivations(long seq, long batch) {
        long sbh = seq * batch * hidden, as2b = heads * seq * seq * batch;
        return new long[] {
            2 * sbh,            // layer norm 1 input
            2 * sbh,            // QKV projection input
            4 * sbh,            // Q and K, for QK^T
            2 * as2b,           // softmax output
            as2b,               // softmax dropout mask
            2 * as2b,           // dropout output, for attention over values
            2 * sbh,            // V
            2 * sbh,            // output projection input
            sbh,                // attention dropout mask
            2 * sbh,            // layer norm 2 input
            2 * sbh,            // first MLP linear input
            8 * sbh,            // GeLU input
            8 * sbh,            // second MLP linear input
            sbh,                // MLP dropout mask
        };
    }
}
