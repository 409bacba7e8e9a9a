package vramlab.quiz;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * The graded items of one test plan and their results, robust to what students do to tests.
 * The batch grader's child JVM ({@code vramlab.quiz.grade.ChildRunner}) books its items here;
 * a failed item earns nothing, whatever it threw (see {@link ScoreRow}).
 *
 * <p>A graded item is the topmost descriptor whose method carries {@link Graded}: a plain test,
 * or the container of a parameterized or repeated test, whose invocations must all pass. An
 * item gets exactly one row: when it finishes; when an enclosing container fails first (a test
 * class whose static initialiser throws, a failing {@code @BeforeAll}): 0 and that reason; when
 * it is skipped; and, at the end of the plan, 0 and "not run" for an item nothing reported.
 */
public final class GradedItems {
    /** A graded item: the descriptor's unique id, its annotation and its display name. */
    public record Item(String uniqueId, Graded graded, String name) {}

    private final Map<String, Item> items = new LinkedHashMap<>();
    private final Map<String, Throwable> firstFailure = new LinkedHashMap<>();
    private final Map<String, ScoreRow> rows = new LinkedHashMap<>();
    private final Consumer<ScoreRow> onRow;
    private TestPlan plan;

    public GradedItems(Consumer<ScoreRow> onRow) { this.onRow = onRow; }

    /** Finds every graded item of {@code plan}. */
    public void start(TestPlan plan) {
        this.plan = plan;
        for (TestIdentifier root : plan.getRoots()) collect(root);
    }

    private void collect(TestIdentifier id) {
        Optional<Graded> g = graded(id);
        boolean parentSame = plan.getParent(id).flatMap(GradedItems::method).equals(method(id))
                && method(id).isPresent();
        if (g.isPresent() && !parentSame) {
            items.put(id.getUniqueId(), new Item(id.getUniqueId(), g.get(), id.getDisplayName()));
            return;
        }
        for (TestIdentifier child : plan.getChildren(id)) collect(child);
    }

    public List<Item> items() { return new ArrayList<>(items.values()); }

    /** The rows booked so far, by item unique id. */
    public Map<String, ScoreRow> booked() { return new LinkedHashMap<>(rows); }

    /** The item {@code id} is, or belongs to; null when it is not graded. */
    public Item itemOf(TestIdentifier id) {
        for (TestIdentifier t = id; t != null; t = plan.getParent(t).orElse(null)) {
            Item item = items.get(t.getUniqueId());
            if (item != null) return item;
        }
        return null;
    }

    public void finished(TestIdentifier id, TestExecutionResult result) {
        if (plan == null) return;
        Item item = items.get(id.getUniqueId());
        Item owner = item != null ? item : itemOf(id);
        if (owner != null && item == null) {
            // An invocation of a parameterized graded test: remember its first failure.
            if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                firstFailure.putIfAbsent(owner.uniqueId(), result.getThrowable().orElse(null));
            }
            return;
        }
        if (item != null) {
            Throwable earlier = firstFailure.get(item.uniqueId());
            boolean passed = result.getStatus() == TestExecutionResult.Status.SUCCESSFUL
                    && !firstFailure.containsKey(item.uniqueId());
            Throwable why = result.getThrowable().orElse(earlier);
            book(item, ScoreRow.of(item.graded().step(), item.name(), item.graded().points(), passed, why));
            return;
        }
        if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
            // A container failed (class initialisation, @BeforeAll): its unfinished items get 0.
            String why = result.getThrowable().map(ScoreRow::reason).orElse("its test class failed");
            for (Item i : itemsUnder(id)) {
                book(i, ScoreRow.zero(i.graded().step(), i.name(), i.graded().points(), "FAILED",
                        "the test class could not run: " + why));
            }
        }
    }

    public void skipped(TestIdentifier id, String reason) {
        if (plan == null) return;
        for (Item i : itemsUnder(id)) {
            book(i, ScoreRow.zero(i.graded().step(), i.name(), i.graded().points(), "SKIPPED",
                    reason == null ? "skipped" : reason));
        }
    }

    /** Books "not run" for every item nothing reported; returns every row in plan order. */
    public List<ScoreRow> finish() {
        for (Item i : items.values()) {
            if (!rows.containsKey(i.uniqueId())) {
                book(i, ScoreRow.zero(i.graded().step(), i.name(), i.graded().points(), "FAILED", "not run"));
            }
        }
        List<ScoreRow> out = new ArrayList<>();
        for (Item i : items.values()) out.add(rows.get(i.uniqueId()));
        return out;
    }

    private List<Item> itemsUnder(TestIdentifier id) {
        List<Item> out = new ArrayList<>();
        Item self = items.get(id.getUniqueId());
        if (self != null) return List.of(self);
        for (TestIdentifier d : plan.getDescendants(id)) {
            Item item = items.get(d.getUniqueId());
            if (item != null) out.add(item);
        }
        return out;
    }

    private void book(Item item, ScoreRow row) {
        if (rows.putIfAbsent(item.uniqueId(), row) == null) onRow.accept(row);
    }

    static Optional<Graded> graded(TestIdentifier id) {
        return method(id).map(m -> m.getAnnotation(Graded.class));
    }

    static Optional<Method> method(TestIdentifier id) {
        return id.getSource()
                .filter(MethodSource.class::isInstance)
                .map(MethodSource.class::cast)
                .flatMap(s -> {
                    try {
                        return Optional.of(s.getJavaMethod());
                    } catch (RuntimeException | LinkageError e) {
                        return Optional.empty();
                    }
                });
    }
}
