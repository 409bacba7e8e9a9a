package vramlab.kit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;

/** The chapters on the classpath, in teaching order, and lookup by number or slug. */
public final class Chapters {
    private Chapters() {}

    public static List<ChapterLab> all() {
        List<ChapterLab> out = new ArrayList<>();
        ServiceLoader.load(ChapterLab.class).forEach(out::add);
        out.sort(Comparator.comparingInt(ChapterLab::number));
        return out;
    }

    /**
     * Finds a chapter by {@code 4}, {@code 04}, {@code ch04}, {@code ch04-real-oom} or
     * {@code real-oom}.
     *
     * @throws IllegalArgumentException listing the chapters there are
     */
    public static ChapterLab find(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        for (ChapterLab c : all()) {
            String num = n.startsWith("ch") ? n.substring(2) : n;
            int dash = num.indexOf('-');
            if (dash > 0) num = num.substring(0, dash);
            boolean byNumber = num.matches("\\d{1,2}") && Integer.parseInt(num) == c.number();
            if (byNumber || n.equals(c.slug()) || n.equals(c.id())) return c;
        }
        StringBuilder known = new StringBuilder();
        for (ChapterLab c : all()) known.append(known.length() == 0 ? "" : ", ").append(c.id());
        throw new IllegalArgumentException("no chapter '" + name + "' (chapters: " + known + ")");
    }
}
