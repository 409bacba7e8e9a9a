package vramlab.triage;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads every out-of-memory message in a paste. The patterns run on squeezed text (all
 * whitespace removed, see {@link Paste}), so they are written without spaces: a message wrapped
 * at any column still matches. Each figure is looked for on its own, so a truncated message
 * gives what it has and names the rest as missing. Nothing here throws on bad input.
 *
 * <p>The wordings are PyTorch's own (c10/cuda/CUDACachingAllocator.cpp across releases, and
 * c10/cuda/CUDAMallocAsyncAllocator.cpp for the async backend); see the notes' triage section.
 */
public final class MessageParser {
    /**
     * A printed size. It never starts right after a digit, a comma, or a digit and a point, so a
     * figure with a thousands separator is left unread rather than read as its tail ("1,024MiB"
     * is not 24 MiB, "1,024.00GiB" not 0 bytes); see {@link DecimalCommas}.
     */
    private static final String SIZE =
            "(?<![\\d,])(?<!\\d\\.)(morethan1EB|\\d+(?:\\.\\d+)?(?:bytes|byte|KiB|MiB|GiB|TiB|KB|MB|GB|TB|B))";
    private static final int CI = Pattern.CASE_INSENSITIVE;

    /** Where a caching-allocator or async-backend message starts. */
    private static final Pattern START = Pattern.compile("(CUDA|HIP|XPU|NPU|MUSA|MLU)outofmemory\\."
            + "|Allocationondevice\\d+wouldexceedallowedmemory", CI);

    private MessageParser() {}

    /**
     * A paste copied from "Tried to allocate" on, without the words before it: the figures of a
     * caching-allocator message all the same (either form, parenthesized or sentences).
     */
    private static final Pattern FRAGMENT = Pattern.compile("Triedtoallocate" + SIZE
            + "(?:\\(GPU\\d|\\.GPU\\d+hasatotalcapac)", CI);

    /** Every message found, in order; a paste with none gives one reading that says why. */
    public static List<Reading> parse(String raw) {
        DecimalCommas.Result commas = DecimalCommas.read(raw);
        List<Reading> found = parseRead(commas.text());
        if (commas.note() == null || commas.note().isEmpty()) return found;
        List<Reading> noted = new ArrayList<>();
        for (Reading r : found) noted.add(withNote(r, commas.note()));
        return noted;
    }

    private static List<Reading> parseRead(String raw) {
        List<Paste.Source> sources = Paste.read(raw);
        Set<Clue> clues = cluesOf(sources);
        List<Reading> found = new ArrayList<>();
        for (Paste.Source s : sources) {
            Matcher m = START.matcher(s.squeezed());
            List<Integer> starts = new ArrayList<>();
            while (m.find()) starts.add(m.start());
            if (starts.isEmpty()) {
                Matcher f = FRAGMENT.matcher(s.squeezed());
                if (f.find()) {
                    Reading r = readOne(s.squeezed().substring(f.start()), s.name(), clues);
                    found.add(withNote(r, "The paste starts at 'Tried to allocate': the words before "
                            + "it (which name the device) are missing, so CUDA is assumed."));
                    continue;
                }
            }
            for (int i = 0; i < starts.size(); i++) {
                int end = i + 1 < starts.size() ? starts.get(i + 1) : s.squeezed().length();
                found.add(readOne(s.squeezed().substring(starts.get(i), end), s.name(), clues));
            }
        }
        if (found.isEmpty()) found.add(withoutAllocatorNumbers(sources, clues));
        return found;
    }

    private static Reading withNote(Reading r, String note) {
        List<String> notes = new ArrayList<>(r.notes());
        notes.add(0, note);
        return new Reading(r.family(), r.backend(), r.source(), r.figures(), r.processes(), r.clues(),
                r.missing(), notes);
    }

    /** A source named by {@link Paste} from a {@code [rankN]:} or {@code [defaultN]:} prefix. */
    private static final Pattern RANK_NAME = Pattern.compile("(?:local )?rank (\\d+)");

    private static Set<Clue> cluesOf(List<Paste.Source> sources) {
        Set<Clue> clues = EnumSet.noneOf(Clue.class);
        for (Paste.Source s : sources) {
            for (Clue c : Clue.values()) if (c.foundIn(s.text())) clues.add(c);
            // PyTorch's [rank3]: or torchrun's [default1]: (see Clue.DISTRIBUTED): a rank above 0
            // proves a second process, rank 0 alone does not; or a worker named by its ranks (Worker_TP1)
            Matcher rank = RANK_NAME.matcher(s.name());
            if (rank.matches()) clues.add(rank.group(1).matches("0+") ? Clue.RANK_ZERO : Clue.DISTRIBUTED);
            for (Clue c : List.of(Clue.DISTRIBUTED, Clue.RANK_ZERO)) if (c.foundIn(s.name())) clues.add(c);
        }
        return clues;
    }

    // ---- one allocator message -------------------------------------------------------------

    private static Reading readOne(String seg, String source, Set<Clue> clues) {
        Draft d = new Draft(source, clues);
        if (Pattern.compile("^Allocationondevice", CI).matcher(seg).find()) {
            readAsync(seg, d);
        } else {
            Matcher b = Pattern.compile("^(\\w+?)outofmemory", CI).matcher(seg);
            d.backend = b.find() ? b.group(1).toUpperCase(java.util.Locale.ROOT) : "CUDA";
            if (d.backend.equals(Rocm.BACKEND)) d.notes.add(Rocm.note());
            long tried = d.size(seg, "Triedtoallocate" + SIZE);
            if (tried >= 0) d.figures.put(Figure.REQUESTED, tried);
            if (tried == Sizes.ONE_EB && seg.matches("(?is).*Triedtoallocatemorethan1EB.*")) {
                d.family = Family.ONE_EB;
                d.notes.add("The request is at least 1 EiB: PyTorch refuses it at the front door, "
                        + "before any cudaMalloc.");
            } else if (contains(seg, "hasatotalcapac")) {
                readSentence(seg, d);
            } else if (contains(seg, "\\(GPU\\d")) {
                readParenthesized(seg, d);
            } else {
                d.family = Family.SENTENCE;
                d.notes.add("The message stops before its device figures.");
                d.expect(Figure.DEVICE, Figure.CAPACITY, Figure.FREE, Figure.ALLOCATED_BY_PYTORCH,
                        Figure.RESERVED_BUT_UNALLOCATED);
            }
            if (tried < 0 && d.family != Family.ONE_EB) d.missing.add(Figure.REQUESTED.label());
        }
        readHints(seg, d);
        return d.build();
    }

    // tag::sentence[]
    /** PyTorch 2.1 and later (CCA:1351-1376 in the 2024 source). Each figure, read alone. */
    private static void readSentence(String seg, Draft d) {
        d.family = Family.SENTENCE;
        Matcher m = Pattern.compile("GPU(\\d+)hasatotalcapac(i?)tyof" + SIZE, CI).matcher(seg);
        if (m.find()) {
            d.figures.put(Figure.DEVICE, Long.parseLong(m.group(1)));
            d.put(Figure.CAPACITY, m.group(3));
            if (m.group(2).isEmpty()) d.notes.add("It spells 'capacty', as PyTorch 2.1 did.");
        }
        d.read(seg, Figure.FREE, "ofwhich", "isfree");
        readProcesses(seg, d);
        d.read(seg, Figure.ALLOWED, "", "allowed;");
        d.read(seg, Figure.ALLOCATED_BY_PYTORCH, "Oftheallocatedmemory", "isallocatedbyPyTorch");
        d.read(seg, Figure.PRIVATE_POOLS, "with", "allocatedinprivatepools");
        // Since 2.4 the clause is printed only when > 0 (c10/cuda/CUDACachingAllocator.cpp,
        // DeviceCachingAllocator::malloc: private_pool_msg, added by pytorch/pytorch#124673, April
        // 2024); 2.1's wording ('capacty', the max_split_size_mb hint) never printed it, and counted a
        // graph's pool among the unallocated bytes (pytorch/pytorch#121932): absent there, not 0.
        // 2.2 and 2.3 word it as 2.4 does; the exception's old name around it dates them (Clue.BEFORE_2_4).
        boolean before24 = contains(seg, "hasatotalcapactyof") || contains(seg, "settingmax_split_size_mb")
                || d.clues.contains(Clue.BEFORE_2_4) && !d.clues.contains(Clue.SINCE_2_4);
        if (d.lacks(Figure.PRIVATE_POOLS) && !d.lacks(Figure.ALLOCATED_BY_PYTORCH) && !before24) {
            d.figures.put(Figure.PRIVATE_POOLS, 0L);
        }
        d.read(seg, Figure.RESERVED_BUT_UNALLOCATED, "and", "isreservedbyPyTorchbutunallocated");
        d.sum(Figure.RESERVED, Figure.ALLOCATED_BY_PYTORCH, Figure.RESERVED_BUT_UNALLOCATED);
        d.expect(Figure.DEVICE, Figure.CAPACITY, Figure.FREE, Figure.ALLOCATED_BY_PYTORCH,
                Figure.RESERVED_BUT_UNALLOCATED);
    }

    /** NVML's lines: "Process P has X memory in use." and "... this process has X ...". */
    private static void readProcesses(String seg, Draft d) {
        Matcher p = Pattern.compile("Process(\\d+)has" + SIZE + "memoryinuse", CI).matcher(seg);
        long others = 0;
        while (p.find()) {
            long bytes = Sizes.parseOrMinusOne(p.group(2));
            if (bytes < 0) continue;
            d.processes.merge(Integer.parseInt(p.group(1)), bytes, Long::sum);
            others += bytes;
        }
        d.read(seg, Figure.THIS_PROCESS, "thisprocesshas", "memoryinuse");
        if (!d.processes.isEmpty() || !d.lacks(Figure.THIS_PROCESS)) {
            d.figures.put(Figure.OTHER_PROCESSES, others);
        } else {
            d.notes.add("It lists no processes: NVML was unavailable, or the lines were cut.");
        }
    }
    // end::sentence[]

    /** PyTorch 0.4 to 2.0: the parenthesized list, ending in "cached" or "reserved in total". */
    private static void readParenthesized(String seg, Draft d) {
        Matcher g = Pattern.compile("\\(GPU(\\d+);", CI).matcher(seg);
        if (g.find()) d.figures.put(Figure.DEVICE, Long.parseLong(g.group(1)));
        d.put(Figure.CAPACITY, d.group(seg, SIZE + "totalcapacity"));
        d.put(Figure.ALLOCATED_BY_PYTORCH, d.group(seg, SIZE + "alreadyallocated"));
        d.put(Figure.FREE, d.group(seg, SIZE + "free[;)]"));
        d.put(Figure.ALLOWED, d.group(seg, SIZE + "allowed;"));
        String reserved = d.group(seg, SIZE + "reservedintotalbyPyTorch");
        String cached = d.group(seg, SIZE + "cached[;)]");
        if (reserved != null || contains(seg, "reservedintotal")) {
            d.family = Family.RESERVED_IN_TOTAL;
            d.put(Figure.RESERVED, reserved);
        } else if (cached != null || contains(seg, "cached")) {
            d.family = Family.CACHED;
            // 0.4 to 1.3 printed amount_cached - amount_allocated here (THCCachingAllocator.cpp,
            // then c10/cuda/CUDACachingAllocator.cpp): the cached bytes no tensor uses.
            d.put(Figure.RESERVED_BUT_UNALLOCATED, cached);
            d.sum(Figure.RESERVED, Figure.ALLOCATED_BY_PYTORCH, Figure.RESERVED_BUT_UNALLOCATED);
            d.notes.add("Before 1.4, 'cached' is the memory PyTorch holds but no tensor uses "
                    + "(cached minus allocated); reserved is allocated plus cached.");
        } else {
            d.family = Family.RESERVED_IN_TOTAL;
            d.notes.add("It is cut before its last figure, so 0.4-1.3 and 1.4-2.0 look alike here.");
        }
        long a = d.figures.getOrDefault(Figure.ALLOCATED_BY_PYTORCH, -1L);
        long r = d.figures.getOrDefault(Figure.RESERVED, -1L);
        if (a >= 0 && r >= 0 && d.family == Family.RESERVED_IN_TOTAL) {
            d.figures.put(Figure.RESERVED_BUT_UNALLOCATED, Math.max(0, r - a));
        }
        d.expect(Figure.DEVICE, Figure.CAPACITY, Figure.ALLOCATED_BY_PYTORCH, Figure.FREE,
                Figure.RESERVED);
    }

    /** The cudaMallocAsync backend (c10/cuda/CUDAMallocAsyncAllocator.cpp, mallocAsync). */
    private static void readAsync(String seg, Draft d) {
        d.family = Family.MALLOC_ASYNC;
        d.backend = "CUDA";
        Matcher m = Pattern.compile("Allocationondevice(\\d+)", CI).matcher(seg);
        if (m.find()) d.figures.put(Figure.DEVICE, Long.parseLong(m.group(1)));
        d.put(Figure.ALLOCATED_BY_PYTORCH, d.group(seg, "Currentlyallocated:" + SIZE));
        d.put(Figure.REQUESTED, d.group(seg, "Requested:" + SIZE));
        d.put(Figure.CAPACITY, d.group(seg, "Devicelimit:" + SIZE));
        d.put(Figure.FREE, d.group(seg, "Free\\(accordingtoCUDA\\):" + SIZE));
        String limit = d.group(seg, "memoryfraction\\):" + SIZE);
        if (limit != null && Sizes.parse(limit).isEmpty()) {
            d.notes.add("Its PyTorch limit is " + limit + " (2^64 bytes): no memory fraction was set.");
        } else {
            d.put(Figure.ALLOWED, limit);
        }
        d.notes.add("The async backend reports no reserved figure: the driver's pool keeps that.");
        d.expect(Figure.DEVICE, Figure.ALLOCATED_BY_PYTORCH, Figure.REQUESTED, Figure.CAPACITY,
                Figure.FREE);
    }

    /**
     * A hint that names {@code PYTORCH_ALLOC_CONF}: 2.10 words it so, 2.11 names the older variable
     * again (vramlab.alloc.PyTorchOomMessage: TAIL_NEWER, TAIL_SINCE_2_11, and their sources).
     */
    static final String ALLOC_CONF_NOTE = "It names PYTORCH_ALLOC_CONF, the newer, device-neutral name of the"
            + " variable, as PyTorch 2.10 words its hint (2.9 and older, and 2.11 and later, name"
            + " PYTORCH_CUDA_ALLOC_CONF).";

    /**
     * A hint that links docs.pytorch.org's section on {@code PYTORCH_CUDA_ALLOC_CONF}: 2.11's form
     * (pytorch/pytorch#172327; vramlab.alloc.PyTorchOomMessage.TAIL_SINCE_2_11 cites the source),
     * where 2.10 and older link pytorch.org/docs/stable/notes/cuda.html#environment-variables.
     */
    static final String SINCE_2_11_NOTE = "Its link to the docs' section on PYTORCH_CUDA_ALLOC_CONF"
            + " (docs.pytorch.org, #optimizing-memory-usage-with-pytorch-cuda-alloc-conf) is the hint of PyTorch"
            + " 2.11 and later; 2.10 and older link #environment-variables. The kit's replays follow 2.9 or 2.10"
            + " (--pytorch-version): they print the older link.";

    private static void readHints(String seg, Draft d) {
        if (contains(seg, "expandable_segments")) {
            d.notes.add("Its hint suggests expandable_segments:True (the hint of newer 2.x releases).");
        } else if (contains(seg, "max_split_size_mb")) {
            d.notes.add("Its hint suggests max_split_size_mb (late 1.x releases up to 2.1).");
        }
        if (contains(seg, "PYTORCH_HIP_ALLOC_CONF")) {
            d.notes.add("Its hint names PYTORCH_HIP_ALLOC_CONF, as some ROCm releases print it: a ROCm "
                    + "build reads that name only while PYTORCH_CUDA_ALLOC_CONF is unset.");
        }
        if (contains(seg, "PYTORCH_ALLOC_CONF")) {
            d.notes.add(ALLOC_CONF_NOTE);
        }
        if (contains(seg, "#optimizing-memory-usage-with-pytorch-cuda-alloc-conf")) d.notes.add(SINCE_2_11_NOTE);
    }

    // ---- no allocator message: raw CUDA errors, NCCL, look-alikes ----------------------------

    private static final Map<String, String> LOOK_ALIKES = lookAlikes();

    private static Map<String, String> lookAlikes() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("ResourceExhaustedError|OOMwhenallocatingtensor|_bfc\\)?ranoutofmemory", "TensorFlow");
        m.put("RESOURCE_EXHAUSTED:|XlaRuntimeError", "JAX/XLA");
        m.put("hipErrorOutOfMemory|HIPerror:outofmemory", "ROCm/HIP");
        m.put("MPSbackendoutofmemory", "Apple MPS");
        m.put("DefaultCPUAllocator:(?:can'?t|cannot)allocatememory|DefaultCPUAllocator:notenoughmemory",
                "the CPU allocator (host RAM)");
        m.put("CUBLAS_STATUS_ALLOC_FAILED", "cuBLAS");
        m.put("CUDNN_STATUS_ALLOC_FAILED", "cuDNN");
        return m;
    }

    private static Reading withoutAllocatorNumbers(List<Paste.Source> sources, Set<Clue> clues) {
        StringBuilder all = new StringBuilder();
        String source = "";
        for (Paste.Source s : sources) {
            all.append(s.squeezed()).append('\n');
            if (source.isEmpty()) source = s.name();
        }
        String text = all.toString();
        Draft d = new Draft(source, clues);
        d.backend = "CUDA";
        String framework = otherFramework(text);
        if (framework != null) {
            d.family = Family.LOOK_ALIKE;
            d.backend = framework;
            return d.build();
        }
        if (contains(text, "cuDNNerror:CUDNN_STATUS_ALLOC_FAILED")) {
            // PyTorch's own wording (AT_CUDNN_CHECK in aten/src/ATen/cudnn/Exceptions.h: "cuDNN
            // error: " + cudnnGetErrorString): cuDNN could not allocate its workspace or handle.
            d.family = Family.CUDNN_ERROR;
            d.clues.add(Clue.CUDNN);
            d.notes.add("cuDNN itself failed to allocate (CUDNN_STATUS_ALLOC_FAILED), raised by PyTorch:"
                    + " its workspace or handle did not fit beside what PyTorch holds.");
            return d.build();
        }
        if (contains(text, "NCCL") && contains(text, "Cudafailure\\d*['\"]?outofmemory"
                + "|ncclUnhandledCudaError.*outofmemory|FailedtoCUDAcalloc")) {
            // NCCL's own allocation failed: NCCL runs here, which a world of one does too (see
            // Clue.DISTRIBUTED_MENTION); the family names the cause, the words show no second rank.
            d.family = Family.NCCL_ERROR;
            d.clues.add(Clue.DISTRIBUTED_MENTION);
        } else if (contains(text, "THCudaCheckFAIL.*outofmemory|cudaruntimeerror\\(2\\):outofmemory")) {
            d.family = Family.THC_LEGACY;
        } else if (contains(text,
                "CUDAerror:outofmemory|CUDA_ERROR_OUT_OF_MEMORY|cudaErrorMemoryAllocation")) {
            d.family = Family.CUDA_ERROR;
        } else if (contains(text, "UnabletofindavalidcuDNNalgorithm"
                + "|unabletofindanenginetoexecutethiscomputation")) {
            // try_all in aten/src/ATen/native/cudnn/Conv_v7.cpp retries every algorithm, and the
            // v8 path halves the workspace, on each OutOfMemoryError before giving up with this.
            d.family = Family.CUDNN_ERROR;
            d.clues.add(Clue.CUDNN);
        } else {
            d.family = Family.UNRECOGNIZED;
            d.backend = "";
            for (Map.Entry<String, String> e : LOOK_ALIKES.entrySet()) {
                if (contains(text, e.getKey())) {
                    d.family = Family.LOOK_ALIKE;
                    d.backend = e.getValue();
                    break;
                }
            }
            if (d.family == Family.UNRECOGNIZED && contains(text, "CUDAoutofmemory")) {
                d.family = Family.WRAPPED;
                d.backend = "CUDA";
            }
        }
        if (d.family != Family.LOOK_ALIKE && d.family != Family.UNRECOGNIZED) {
            d.notes.add("It carries no allocator figures; the ladder can only go by its words.");
        }
        return d.build();
    }

    /**
     * Another framework's CUDA out-of-memory text, told by its own marks before any CUDA word is
     * read as PyTorch's: TensorFlow's stream executor and BFC allocator (and its "Could not
     * create cudnn handle"), the NVHPC OpenACC runtime ("Accelerator Fatal Error: call to
     * cuMemAlloc returned error 2"), Lua Torch7's cutorch (THC built by luarocks, Lua stack
     * traces, "Error in CuDNN"), and JAX/XLA. Null when none.
     */
    private static String otherFramework(String text) {
        if (contains(text, "tensorflow[/\\\\]|stream_executor|bfc_allocator|GPU_\\d+_bfc|Couldnotcreatecudnnhandle")) {
            return "TensorFlow";
        }
        if (contains(text, "AcceleratorFatalError|calltocuMem\\w*returnederror")) return "OpenACC (NVHPC runtime)";
        if (contains(text, "luarocks_cutorch|cutorch[/\\\\]|share[/\\\\]lua[/\\\\]|luajit:|qlua:|ErrorinCuDNN:")) {
            return "Lua Torch7 (cutorch)";
        }
        if (contains(text, "RESOURCE_EXHAUSTED:|XlaRuntimeError|jaxlib")) return "JAX/XLA";
        return null;
    }

    private static boolean contains(String text, String regex) {
        return Pattern.compile(regex, CI | Pattern.DOTALL).matcher(text).find();
    }

    /** A reading being assembled. */
    private static final class Draft {
        final String source;
        final Set<Clue> clues;
        Family family = Family.UNRECOGNIZED;
        String backend = "";
        final Map<Figure, Long> figures = new EnumMap<>(Figure.class);
        final Map<Integer, Long> processes = new LinkedHashMap<>();
        final List<String> missing = new ArrayList<>();
        final List<String> notes = new ArrayList<>();

        Draft(String source, Set<Clue> clues) {
            this.source = source;
            this.clues = clues.isEmpty() ? EnumSet.noneOf(Clue.class) : EnumSet.copyOf(clues);
        }

        /** The first group of {@code regex} in {@code seg}, or null. */
        String group(String seg, String regex) {
            Matcher m = Pattern.compile(regex, CI).matcher(seg);
            return m.find() ? m.group(1) : null;
        }

        /** Reads the size between {@code before} and {@code after} into {@code f}, if there. */
        void read(String seg, Figure f, String before, String after) {
            put(f, group(seg, before + SIZE + after));
        }

        boolean lacks(Figure f) { return !figures.containsKey(f); }

        long size(String seg, String regex) {
            String g = group(seg, regex);
            return g == null ? -1 : Sizes.parseOrMinusOne(g);
        }

        void put(Figure f, String sizeText) {
            if (sizeText == null) return;
            long bytes = Sizes.parseOrMinusOne(sizeText);
            if (bytes >= 0) figures.put(f, bytes);
        }

        void sum(Figure into, Figure a, Figure b) {
            if (!lacks(a) && !lacks(b)) figures.put(into, figures.get(a) + figures.get(b));
        }

        void expect(Figure... fs) {
            for (Figure f : fs) if (!figures.containsKey(f)) missing.add(f.label());
        }

        Reading build() {
            return new Reading(family, backend, source, figures, processes, clues, missing, notes);
        }
    }
}
