package vramlab.cli;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * A file a command writes when its work is done ({@code --html PAGE}, {@code replay --export
 * SNAPSHOT}): checked before the work, so that a path that cannot be written is a usage error
 * (exit 2, one line naming the option, the path and what was expected) and not the end of a
 * replay that printed everything first. A missing directory is refused, not made: as {@code
 * torch.cuda.memory._dump_snapshot}, {@code cp} and {@code gcc -o} refuse it, since it is more
 * often a mistyped path than a wish for a new folder.
 */
final class OutputFile {
    private OutputFile() {}

    /**
     * @param where  the command, for the error's {@code error: WHERE:}
     * @param option the option that names the file
     * @param file   the path as given
     */
    static void check(String where, String option, String file) {
        Path p;
        try {
            p = Path.of(file).toAbsolutePath();
        } catch (InvalidPathException e) {
            throw new UsageException(where, option + " '" + file + "': not a path (" + e.getReason() + ")");
        }
        String named = option + " " + file + ": ";
        if (Files.isDirectory(p)) throw new UsageException(where, named + "is a directory, expected a file");
        Path dir = p.getParent();
        if (dir == null || !Files.exists(dir)) {
            throw new UsageException(where, named + "no such directory " + dir + ", expected a file in an existing one");
        }
        if (!Files.isDirectory(dir)) {
            throw new UsageException(where, named + dir + " is a file, expected a directory");
        }
        if (!Files.isWritable(dir)) throw new UsageException(where, named + "cannot write in " + dir);
        if (Files.exists(p) && !Files.isWritable(p)) throw new UsageException(where, named + "cannot write it (read-only)");
    }
}
