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
}
