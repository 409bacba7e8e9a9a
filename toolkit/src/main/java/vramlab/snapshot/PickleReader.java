package vramlab.snapshot;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import net.razorvine.pickle.Opcodes;
import net.razorvine.pickle.PickleException;
import net.razorvine.pickle.Unpickler;
import vramlab.trace.TraceException;
import vramlab.trace.TraceReader;

/**
 * The pickle library's unpickler with a guard in front of every opcode, so that a file nobody
 * meant as a snapshot is refused at the byte it goes wrong, in words, before it costs more than
 * its own size (the opcodes are those of CPython's {@code Lib/pickletools.py}, 3.12):
 * <ul>
 *   <li>a declared length ({@code BINUNICODE}, {@code BINBYTES}, {@code BINSTRING},
 *       {@code LONG4}, their 8-byte and 1-byte forms) is checked against the bytes that remain
 *       before the library allocates it: a 10-byte file that declares a 2 GiB string is
 *       refused having allocated nothing;</li>
 *   <li>a snapshot holds dicts, lists, tuples, strings, numbers, booleans and None: an opcode
 *       that names a global ({@code GLOBAL}, {@code STACK_GLOBAL}, {@code INST}), calls or builds
 *       an object ({@code REDUCE}, {@code NEWOBJ}, {@code OBJ}, {@code BUILD}, ...), asks for a
 *       persistent id, an extension, an out-of-band buffer or a set is refused as "not a memory
 *       snapshot", naming the global it asked for; nothing a pickle names is looked up, loaded
 *       or run;</li>
 *   <li>a number written as text is at most {@value #MAX_NUMBER_TEXT} characters and a binary
 *       one at most {@value #MAX_NUMBER_BYTES} bytes (Java's text-to-{@code BigInteger} is
 *       quadratic in the digits); a dict key is never a list or a dict (Python cannot hash
 *       one, and hashing a list that holds itself would never end);</li>
 *   <li>{@code APPENDS} and {@code POP_MARK} are done here in time linear in the items they
 *       move (the library trims the whole list, or the whole stack, after each one: quadratic
 *       for a file of many short {@code APPENDS}).</li>
 * </ul>
 * Every opcode reads at least one byte, so the count of opcodes, objects and memo entries is at
 * most the file's length, which {@link SnapshotInput} caps. What the library itself refuses
 * (a truncated file, an unknown opcode, a memo key never stored, an {@code APPEND} onto a
 * dict) is said at the opcode's offset too, without the library's Java type names.
 */
final class PickleReader extends Unpickler {
    /** Digits of a number written as text (INT, LONG, FLOAT) and of a memo key (GET, PUT). */
    static final int MAX_NUMBER_TEXT = 64;
    /** Bytes of a LONG4 integer (a snapshot's largest, an address above 2^63, takes 9). */
    static final int MAX_NUMBER_BYTES = 64;

    private final Input in;
    private final String file;
    private long at;
    private short op;

    /** Whether the bytes end as every pickle does, with STOP; one that does not was likely cut short. */
    private final boolean endsWithStop;

    private PickleReader(byte[] bytes, String file) {
        this.in = new Input(bytes);
        this.file = file;
        this.endsWithStop = bytes.length > 0 && bytes[bytes.length - 1] == (byte) Opcodes.STOP;
    }

    /** The object the pickle {@code bytes} of {@code file} holds, or a {@link TraceException} at its byte. */
    static Object read(byte[] bytes, String file) {
        PickleReader r = new PickleReader(bytes, file);
        try {
            return r.load(r.in);
        } catch (TraceException e) {
            throw e;
        } catch (PickleException | IOException e) {
            throw r.refuse("broken pickle at " + r.name() + ": " + plain(e.getMessage()));
        } catch (ClassCastException e) {
            throw r.refuse("broken pickle: " + r.name() + " applies to a value of the wrong kind"
                    + " (APPEND onto something not a list, SETITEM onto something not a dict, ...)");
        } catch (IndexOutOfBoundsException | java.util.NoSuchElementException e) {
            throw r.refuse("broken pickle: " + r.name() + " takes more values than were pushed before it");
        } catch (NumberFormatException e) {
            throw r.refuse("broken pickle: " + r.name() + " holds a number that does not parse: " + e.getMessage());
        } catch (RuntimeException | StackOverflowError e) {
            throw r.refuse("broken pickle at " + r.name());
        }
    }

    @Override
    protected Object dispatch(short key) throws PickleException, IOException {
        at = in.pos - 1;
        op = key;
        switch (key) {
            case Opcodes.BINUNICODE, Opcodes.BINBYTES -> length(in.peekLong(4, false), 4);
            case Opcodes.BINSTRING -> length(in.peekLong(4, true), 4);
            case Opcodes.LONG4 -> number(length(in.peekLong(4, true), 4));
            case Opcodes.BINUNICODE8, Opcodes.BINBYTES8, Opcodes.BYTEARRAY8 -> length(in.peekLong(8, false), 8);
            case Opcodes.SHORT_BINUNICODE, Opcodes.SHORT_BINBYTES, Opcodes.SHORT_BINSTRING, Opcodes.LONG1 ->
                    length(in.peekLong(1, false), 1);
            case Opcodes.INT, Opcodes.LONG, Opcodes.FLOAT, Opcodes.GET, Opcodes.PUT -> numberLine();
            case Opcodes.GLOBAL, Opcodes.INST -> throw calls(in.peekLine(0), in.peekLine(1));
            case Opcodes.STACK_GLOBAL -> {
                Object name = stack.size() >= 2 ? stack.pop() : null;
                Object module = stack.size() >= 1 ? stack.pop() : null;
                throw calls(String.valueOf(module), String.valueOf(name));
            }
            case Opcodes.REDUCE, Opcodes.NEWOBJ, Opcodes.NEWOBJ_EX, Opcodes.OBJ, Opcodes.BUILD ->
                    throw refuse("not a memory snapshot: " + name() + " calls or builds an object"
                            + " (a snapshot holds only dicts, lists, strings and numbers)");
            case Opcodes.PERSID, Opcodes.BINPERSID, Opcodes.EXT1, Opcodes.EXT2, Opcodes.EXT4,
                    Opcodes.NEXT_BUFFER, Opcodes.READONLY_BUFFER, Opcodes.EMPTY_SET, Opcodes.ADDITEMS,
                    Opcodes.FROZENSET ->
                    throw refuse("not a memory snapshot: " + name() + " (a snapshot holds only dicts, lists,"
                            + " strings and numbers)");
            case Opcodes.SETITEM -> {
                Object value = stack.pop();
                key(stack.peek());
                stack.add(value);
            }
            case Opcodes.SETITEMS, Opcodes.DICT -> {
                List<Object> items = stack.pop_all_since_marker();
                for (int i = 0; i < items.size(); i += 2) key(items.get(i));
                stack.add_mark();
                for (Object o : items) stack.add(o);
            }
            case Opcodes.APPENDS -> {
                List<Object> items = stack.pop_all_since_marker();
                if (!(stack.peek() instanceof List<?>)) throw new ClassCastException();
                @SuppressWarnings("unchecked")
                List<Object> list = (List<Object>) stack.peek();
                list.addAll(items);
                return NO_RETURN_VALUE;
            }
            case Opcodes.POP_MARK -> {
                stack.pop_all_since_marker();
                return NO_RETURN_VALUE;
            }
            default -> { }
        }
        return super.dispatch(key);
    }

    /** A declared length of {@code n} bytes after a {@code width}-byte field, against what remains. */
    private long length(long n, int width) {
        long remain = in.remaining() - width;
        if (n < 0 || n > remain) {
            String declared = n >= 0 ? n + " bytes"
                    : width == 8 ? BigInteger.valueOf(n).add(BigInteger.ONE.shiftLeft(64)) + " bytes"  // unsigned
                    : "a negative length, " + n;
            throw refuse(name() + " declares " + declared + " but the file has " + Math.max(remain, 0)
                    + " left after it");
        }
        return n;
    }

    private void number(long n) {
        if (n > MAX_NUMBER_BYTES) {
            throw refuse(name() + " declares an integer of " + n + " bytes (a memory snapshot's take at most 9;"
                    + " at most " + MAX_NUMBER_BYTES + " are read)");
        }
    }

    private void numberLine() {
        int n = in.lineLength(MAX_NUMBER_TEXT);
        if (n < 0) {
            throw refuse(name() + " writes a number of more than " + MAX_NUMBER_TEXT + " characters"
                    + " (at most " + MAX_NUMBER_TEXT + " are read)");
        }
    }

    private void key(Object k) {
        if (k instanceof Collection<?> || k instanceof Map<?, ?>) {
            throw refuse("broken pickle: " + name() + " uses " + Shape.describe(k) + " as a dict key"
                    + " (Python cannot hash one, so no pickle.dump writes it)");
        }
    }

    private TraceException calls(String module, String attr) {
        String global = module + "." + attr;
        String os = module.equals("posix") || module.equals("nt") ? ", that is os." + attr : "";
        return refuse("not a memory snapshot: it calls " + plain(global) + os + " (" + name()
                + " asks for that global; a snapshot holds only dicts, lists, strings and numbers,"
                + " and the kit loads and runs nothing a file names)");
    }

    private TraceException refuse(String what) {
        // A copy or download that stopped early fails at whatever opcode it was cut in, in that
        // opcode's words ("invalid memo key"); the missing STOP says what happened.
        return TraceException.atByte(file, at, endsWithStop ? what
                : what + "; the file does not end with STOP, a pickle's last opcode: was it cut short?");
    }

    /** The current opcode's name as {@code pickletools} prints it. */
    private String name() {
        String n = op >= 0 && op < NAMES.length ? NAMES[op] : null;
        return n != null ? n : "opcode 0x" + Integer.toHexString(op);
    }

    private static String plain(String s) { return s == null ? "(no message)" : TraceReader.shown(s); }

    /** Opcode names as {@code pickletools} prints them, by opcode. */
    private static final String[] NAMES = new String[256];

    static {
        NAMES[Opcodes.MARK] = "MARK";
        NAMES[Opcodes.STOP] = "STOP";
        NAMES[Opcodes.POP] = "POP";
        NAMES[Opcodes.POP_MARK] = "POP_MARK";
        NAMES[Opcodes.DUP] = "DUP";
        NAMES[Opcodes.FLOAT] = "FLOAT";
        NAMES[Opcodes.INT] = "INT";
        NAMES[Opcodes.BININT] = "BININT";
        NAMES[Opcodes.BININT1] = "BININT1";
        NAMES[Opcodes.LONG] = "LONG";
        NAMES[Opcodes.BININT2] = "BININT2";
        NAMES[Opcodes.NONE] = "NONE";
        NAMES[Opcodes.PERSID] = "PERSID";
        NAMES[Opcodes.BINPERSID] = "BINPERSID";
        NAMES[Opcodes.REDUCE] = "REDUCE";
        NAMES[Opcodes.STRING] = "STRING";
        NAMES[Opcodes.BINSTRING] = "BINSTRING";
        NAMES[Opcodes.SHORT_BINSTRING] = "SHORT_BINSTRING";
        NAMES[Opcodes.UNICODE] = "UNICODE";
        NAMES[Opcodes.BINUNICODE] = "BINUNICODE";
        NAMES[Opcodes.APPEND] = "APPEND";
        NAMES[Opcodes.BUILD] = "BUILD";
        NAMES[Opcodes.GLOBAL] = "GLOBAL";
        NAMES[Opcodes.DICT] = "DICT";
        NAMES[Opcodes.EMPTY_DICT] = "EMPTY_DICT";
        NAMES[Opcodes.APPENDS] = "APPENDS";
        NAMES[Opcodes.GET] = "GET";
        NAMES[Opcodes.BINGET] = "BINGET";
        NAMES[Opcodes.INST] = "INST";
        NAMES[Opcodes.LONG_BINGET] = "LONG_BINGET";
        NAMES[Opcodes.LIST] = "LIST";
        NAMES[Opcodes.EMPTY_LIST] = "EMPTY_LIST";
        NAMES[Opcodes.OBJ] = "OBJ";
        NAMES[Opcodes.PUT] = "PUT";
        NAMES[Opcodes.BINPUT] = "BINPUT";
        NAMES[Opcodes.LONG_BINPUT] = "LONG_BINPUT";
        NAMES[Opcodes.SETITEM] = "SETITEM";
        NAMES[Opcodes.TUPLE] = "TUPLE";
        NAMES[Opcodes.EMPTY_TUPLE] = "EMPTY_TUPLE";
        NAMES[Opcodes.SETITEMS] = "SETITEMS";
        NAMES[Opcodes.BINFLOAT] = "BINFLOAT";
        NAMES[Opcodes.PROTO] = "PROTO";
        NAMES[Opcodes.NEWOBJ] = "NEWOBJ";
        NAMES[Opcodes.EXT1] = "EXT1";
        NAMES[Opcodes.EXT2] = "EXT2";
        NAMES[Opcodes.EXT4] = "EXT4";
        NAMES[Opcodes.TUPLE1] = "TUPLE1";
        NAMES[Opcodes.TUPLE2] = "TUPLE2";
        NAMES[Opcodes.TUPLE3] = "TUPLE3";
        NAMES[Opcodes.NEWTRUE] = "NEWTRUE";
        NAMES[Opcodes.NEWFALSE] = "NEWFALSE";
        NAMES[Opcodes.LONG1] = "LONG1";
        NAMES[Opcodes.LONG4] = "LONG4";
        NAMES[Opcodes.BINBYTES] = "BINBYTES";
        NAMES[Opcodes.SHORT_BINBYTES] = "SHORT_BINBYTES";
        NAMES[Opcodes.SHORT_BINUNICODE] = "SHORT_BINUNICODE";
        NAMES[Opcodes.BINUNICODE8] = "BINUNICODE8";
        NAMES[Opcodes.BINBYTES8] = "BINBYTES8";
        NAMES[Opcodes.EMPTY_SET] = "EMPTY_SET";
        NAMES[Opcodes.ADDITEMS] = "ADDITEMS";
        NAMES[Opcodes.FROZENSET] = "FROZENSET";
        NAMES[Opcodes.NEWOBJ_EX] = "NEWOBJ_EX";
        NAMES[Opcodes.STACK_GLOBAL] = "STACK_GLOBAL";
        NAMES[Opcodes.MEMOIZE] = "MEMOIZE";
        NAMES[Opcodes.FRAME] = "FRAME";
        NAMES[Opcodes.BYTEARRAY8] = "BYTEARRAY8";
        NAMES[Opcodes.NEXT_BUFFER] = "NEXT_BUFFER";
        NAMES[Opcodes.READONLY_BUFFER] = "READONLY_BUFFER";
    }

    /** The file's bytes as a stream that knows its place and can look ahead. */
    private static final class Input extends InputStream {
        private final byte[] b;
        private int pos;

        Input(byte[] b) { this.b = b; }

        long remaining() { return b.length - pos; }

        @Override
        public int read() { return pos < b.length ? b[pos++] & 0xff : -1; }

        @Override
        public int read(byte[] out, int off, int len) {
            if (len == 0) return 0;
            if (pos >= b.length) return -1;
            int n = Math.min(len, b.length - pos);
            System.arraycopy(b, pos, out, off, n);
            pos += n;
            return n;
        }

        @Override
        public int available() { return b.length - pos; }

        /** The little-endian number of {@code width} bytes at the read position (0 past the end). */
        long peekLong(int width, boolean signed32) {
            if (b.length - pos < width) return 0;
            long v = 0;
            for (int i = width - 1; i >= 0; i--) v = (v << 8) | (b[pos + i] & 0xff);
            if (signed32) return (int) v;
            return v;                                  // 8 bytes above 2^63 read negative: refused
        }

        /** The length of the line at the read position, or -1 when it is longer than {@code max}. */
        int lineLength(int max) {
            int i = pos;
            while (i < b.length && b[i] != '\n') {
                if (i - pos >= max) return -1;
                i++;
            }
            return i - pos;
        }

        /** The {@code n}th line from the read position (at most 256 bytes of it), as Latin-1. */
        String peekLine(int n) {
            int i = pos;
            for (int line = 0; line < n; line++) {
                while (i < b.length && b[i] != '\n') i++;
                i++;
            }
            StringBuilder sb = new StringBuilder();
            while (i < b.length && b[i] != '\n' && sb.length() < 256) sb.append((char) (b[i++] & 0xff));
            return sb.toString();
        }
    }
}
