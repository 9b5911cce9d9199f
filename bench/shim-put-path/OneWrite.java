import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.hbase.thrift2.generated.TColumnValue;
import org.apache.hadoop.hbase.thrift2.generated.THBaseService;
import org.apache.hadoop.hbase.thrift2.generated.TPut;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;

/**
 * How a stock thrift2 client (TSocket + TBinaryProtocol, as ThriftTarget builds it) sends a put of
 * a 1000-byte value: to a plain socket on 127.0.0.1 that prints the size of each read. One read of
 * the whole request means one write (libthrift 0.14.1 buffers 8 KiB).
 *   java -cp "$(cat lib/thrift-shim.classpath)" bench/shim-put-path/OneWrite.java
 */
public class OneWrite {
  public static void main(String[] args) throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread reader = new Thread(() -> {
        try (Socket s = listener.accept(); InputStream in = s.getInputStream()) {
          byte[] b = new byte[65536];
          for (int n; (n = in.read(b)) > 0; ) {
            System.out.println("read " + n + " bytes");
          }
        } catch (Exception e) {
          System.out.println("reader: " + e);
        }
      });
      reader.start();
      TSocket socket = new TSocket(new TConfiguration(), "127.0.0.1", listener.getLocalPort(), 5000);
      socket.open();
      THBaseService.Client client = new THBaseService.Client(new TBinaryProtocol(socket));
      TPut put = new TPut(ByteBuffer.wrap("row-0001234".getBytes(StandardCharsets.US_ASCII)), List.of(
          new TColumnValue(ByteBuffer.wrap(new byte[] {'f'}), ByteBuffer.wrap(new byte[] {'q'}), ByteBuffer.wrap(new byte[1000]))));
      Thread.sleep(200); // the reader blocked in read: a request in two writes would show as two reads
      client.send_put(ByteBuffer.wrap("shim_bench".getBytes(StandardCharsets.US_ASCII)), put);
      Thread.sleep(300);
      socket.close();
      reader.join(5000);
    }
  }
}
