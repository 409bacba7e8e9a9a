import vramlab.ch08.*;
import vramlab.contest.*;
import vramlab.driver.Gpu;
import vramlab.judge.*;
import vramlab.workload.*;
import static vramlab.units.Bytes.*;

void help() { System.out.print(MallocLab.help()); }
System.out.println("Chapter 8: the GPU malloc lab. help() lists what to try.");
