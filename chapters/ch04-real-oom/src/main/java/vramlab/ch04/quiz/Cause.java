package vramlab.ch04.quiz;

/** The six causes of a real CUDA OOM, in the order the chapter's triage eliminates them. */
public enum Cause {
    FRAGMENTATION, OTHER_PROCESSES, NCCL_BUFFERS, CUDA_GRAPH_POOLS, CUDNN_WORKSPACE, DRIVER_RESERVE
}
