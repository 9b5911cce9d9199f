import java.lang.management.*;
public class Probe {
  static ThreadMXBean T = ManagementFactory.getThreadMXBean();
  public static void main(String[] a) throws Exception {
    int seconds = Integer.parseInt(a[0]);
    int[] mem = new int[1 << 22]; // 16 MB: beyond L2/L3 share
    for (int i = 0; i < mem.length; i++) mem[i] = i * 31;
    long sink = 0;
    // warm the JIT
    for (int k = 0; k < 200; k++) sink += work(mem, 20000);
    long end = System.currentTimeMillis() + seconds * 1000L;
    while (System.currentTimeMillis() < end) {
      long t0 = T.getCurrentThreadCpuTime();
      long c = cpuLoop(2_000_000);
      long t1 = T.getCurrentThreadCpuTime();
      long m = work(mem, 200000);
      long t2 = T.getCurrentThreadCpuTime();
      sink += c + m;
      System.out.printf("%d %.3f %.3f%n", System.currentTimeMillis(), (t1 - t0) / 1e6, (t2 - t1) / 1e6);
      Thread.sleep(1000);
    }
    System.err.println(sink);
  }
  static long cpuLoop(int n) { long x = 1; for (int i = 0; i < n; i++) { x = x * 6364136223846793005L + 1442695040888963407L; } return x; }
  static long work(int[] mem, int n) { long s = 0; int j = 0; for (int i = 0; i < n; i++) { j = (j * 1103515245 + 12345) & (mem.length - 1); s += mem[j]; } return s; }
}
