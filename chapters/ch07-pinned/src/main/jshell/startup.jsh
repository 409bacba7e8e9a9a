// ch07 Pinned host memory: what ./vramlab jshell pinned loads first.
import static vramlab.units.Bytes.*;
import java.util.*;
import vramlab.driver.*;
import vramlab.pinned.*;
import vramlab.ch07.*;
void help() { System.out.print(PinnedLab.help()); snippets(); }
