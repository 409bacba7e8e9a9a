package vramlab.quiz.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.labgen.LabGenerator;
import vramlab.quiz.KitPaths;

/** Where each step is written, read from the kit's sources, so a failure can name the student's own line. */
class StepPlacesTest {
    @Test
    @DisplayName("every marked step has a place: its class, the method it ends, and its marker's section")
    void everyStep() {
        var root = KitPaths.root();
        Map<String, StepPlaces.Place> places = StepPlaces.read(root);
        List<LabGenerator.Step> steps = LabGenerator.steps(root.resolve("solutions"));
        assertThat(places.keySet()).containsExactlyInAnyOrderElementsOf(steps.stream().map(LabGenerator.Step::id).toList());
        for (LabGenerator.Step s : steps) assertThat(places.get(s.id()).section()).isEqualTo(s.notes());
        assertThat(places.get("6.1")).isEqualTo(new StepPlaces.Place("6.1", "vramlab.buddy.BuddyAllocator", "orderFor",
                "ch06 \"Rule 1: round up to a power of two\""));
        assertThat(places.get("1.1").simpleName()).isEqualTo("AddressSpace.walk");
    }

    @Test
    @DisplayName("the method is the nearest declaration above the marker at a smaller indent; a constructor is <init>")
    void methodAbove() {
        List<String> lines = List.of(
                "class Pool {",
                "    Pool(long size,",
                "         int order) {",
                "        if (size > 0) {",
                "            run(() -> foo(1));",
                "        // lab:begin 9.1 \"x\" see ch09 \"y\"",
                "    }",
                "    public static <T> List<T> pick(int n) {",
                "        int k = count(n);",
                "        // lab:begin 9.2 \"x\" see ch09 \"y\"");
        assertThat(StepPlaces.methodAbove(lines, 5)).isEqualTo("<init>");
        assertThat(StepPlaces.methodAbove(lines, 9)).isEqualTo("pick");
    }

    @Test
    @DisplayName("a frame runs a step when it is in the step's method or a lambda inside it, not elsewhere in the class")
    void runs() {
        StepPlaces.Place p = new StepPlaces.Place("6.1", "vramlab.buddy.BuddyAllocator", "orderFor", "s");
        assertThat(p.runs(new StackTraceElement("vramlab.buddy.BuddyAllocator", "orderFor", "B.java", 1))).isTrue();
        assertThat(p.runs(new StackTraceElement("vramlab.buddy.BuddyAllocator", "lambda$orderFor$0", "B.java", 1))).isTrue();
        assertThat(p.runs(new StackTraceElement("vramlab.buddy.BuddyAllocator", "alloc", "B.java", 1))).isFalse();
        assertThat(p.runs(new StackTraceElement("vramlab.buddy.BuddyAllocatorX", "orderFor", "B.java", 1))).isFalse();
    }

    @Test
    @DisplayName("the student's line is the frame nearest the throw that runs any step's method, whatever the order of the steps")
    void running() {
        StepPlaces.Place round = new StepPlaces.Place("3.1", "vramlab.alloc.ToyPolicy", "roundSize", "s");
        StepPlaces.Place find = new StepPlaces.Place("3.2", "vramlab.alloc.CachingAllocator", "findFreeBlock", "s");
        StackTraceElement[] stack = {new StackTraceElement("java.util.TreeMap", "get", "TreeMap.java", 350),
            new StackTraceElement("vramlab.alloc.ToyPolicy", "roundSize", "ToyPolicy.java", 38),
            new StackTraceElement("vramlab.alloc.CachingAllocator", "findFreeBlock", "CachingAllocator.java", 196)};
        for (List<StepPlaces.Place> places : List.of(List.of(round, find), List.of(find, round))) {
            StepPlaces.Running own = StepPlaces.running(places, stack).orElseThrow();
            assertThat(own.frame()).isSameAs(stack[1]);
            assertThat(own.line()).isEqualTo("ToyPolicy.java:38");
            assertThat(own.method()).isEqualTo("ToyPolicy.roundSize (step 3.1)");
        }
        assertThat(StepPlaces.running(List.of(find), new StackTraceElement[] {stack[0], stack[1]})).isEmpty();
        assertThat(StepPlaces.at(new StackTraceElement("vramlab.alloc.ToyPolicy", "roundSize", null, 38)))
                .isEqualTo("ToyPolicy:38");
    }

    /** A file of two steps as the kit has it: a marker in each method, an overload of roundSize above. */
    static final List<String> REFERENCE = List.of(
            "class ToyPolicy {",                                          // 1
            "    public long roundSize(int requested) {",                 // 2
            "        return roundSize((long) requested);",                // 3
            "    }",                                                      // 4
            "    public long roundSize(long requested) {",                // 5
            "        // lab:begin 3.1 \"x\" see ch03 \"y\"",                // 6
            "        return requested;",                                  // 7
            "        // lab:end",                                         // 8
            "    }",                                                      // 9
            "    public boolean shouldSplit(long block,",                 // 10
            "                               long rounded) {",             // 11
            "        // lab:begin 3.3 \"x\" see ch03 \"y\"",                // 12
            "        return false;",                                      // 13
            "        // lab:end",                                         // 14
            "    }",                                                      // 15
            "}");

    @Test
    @DisplayName("a step's method line follows the student's file: lines added above it, the Todo gone, an overload, a rename")
    void methodLine() {
        List<String> labs = List.of(
                "class ToyPolicy {",
                "    public long roundSize(int requested) {",
                "        return roundSize((long) requested);",
                "    }",
                "    public long roundSize(long requested) {",
                "        throw new vramlab.lab.Todo(\"3.1\", \"x\", \"y\", \"f\");",
                "    }",
                "    public boolean shouldSplit(long block,",
                "                               long rounded) {",
                "        throw new vramlab.lab.Todo(\"3.3\", \"x\", \"y\", \"f\");",
                "    }",
                "}");
        assertThat(StepPlaces.methodLine(labs, "3.1", REFERENCE, 6)).hasValue(5);
        assertThat(StepPlaces.methodLine(labs, "3.3", REFERENCE, 12)).hasValue(8);
        // every number of lines added above the methods (the student's helpers, comments), Todo kept or written
        for (int added = 0; added <= 12; added++) {
            java.util.ArrayList<String> mine = new java.util.ArrayList<>(labs);
            for (int i = 0; i < added; i++) {       // at the class's top, or right above the method
                int at = i % 2 == 0 ? 1 : mine.indexOf("    public long roundSize(long requested) {");
                mine.add(at, i % 3 == 0 ? "    // note " + i : "    private long helper" + i + "(long x) { return x; }");
            }
            int round = 5 + added, split = 8 + added;
            assertThat(mine.get(round - 1)).contains("roundSize(long");
            assertThat(StepPlaces.methodLine(mine, "3.1", REFERENCE, 6)).as("%d added", added).hasValue(round);
            assertThat(StepPlaces.methodLine(mine, "3.3", REFERENCE, 12)).as("%d added", added).hasValue(split);
            mine.set(round, "        return requested + 1;   // written: the Todo is gone");
            assertThat(StepPlaces.methodLine(mine, "3.1", REFERENCE, 6)).as("%d added, written", added).hasValue(round);
            mine.set(round - 1, "    public long roundSize(long requested)   {  // reformatted: found by name");
            assertThat(StepPlaces.methodLine(mine, "3.1", REFERENCE, 6)).as("%d added, reformatted", added).hasValue(round);
        }
        List<String> renamed = labs.stream().map(l -> l.replace("shouldSplit", "splitOrNot")
                .replace("Todo(\"3.3\"", "Todo(\"9.9\"")).toList();
        assertThat(StepPlaces.methodLine(renamed, "3.3", REFERENCE, 12)).isEmpty();
        assertThat(StepPlaces.methodLine(List.of(), "3.1", REFERENCE, 6)).isEmpty();
        assertThat(StepPlaces.methodLine(labs, "3.1", REFERENCE, 99)).as("a line past the reference's end").isEmpty();
    }
}
