// The lab's Java client (docs/lab.md, "Client runtimes"): one HTTP GET per --interval,
// --count times, one JSON line per request on stdout. --api urlconnection uses
// java.net.HttpURLConnection (its keep-alive cache left on, as by default); --api httpclient
// one java.net.http.HttpClient (HTTP/1.1). Neither API exposes the socket's peer, so `peer`
// and `new_conn` come from the origin's X-Lab-Local and X-Lab-Connection-Request headers
// (the same TCP connection seen from its other end). The DNS cache is the JDK's own,
// configured by the caller with -Djava.security.properties=FILE (networkaddress.cache.ttl).
import java.io.InputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URL;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

public class LabClient {
  private static String quote(String text) {
    if (text == null) return "null";
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') out.append('\\').append(c);
      else if (c < 0x20) out.append(' ');
      else out.append(c);
    }
    return out.append('"').toString();
  }

  private static String kind(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof ConnectException) {
        String message = String.valueOf(cause.getMessage());
        if (message.contains("refused")) return "refused";
        if (message.contains("timed out")) return "timeout";
        // JDK 17's HttpClient reports a refused connect as a ConnectException without a
        // message around a ClosedChannelException (seen on this lab's loopback).
        if (cause.getCause() instanceof java.nio.channels.ClosedChannelException) return "refused";
      }
      if (cause instanceof SocketTimeoutException || cause instanceof HttpConnectTimeoutException) return "timeout";
      if (cause instanceof UnknownHostException || cause instanceof java.nio.channels.UnresolvedAddressException) return "dns";
      if (cause instanceof javax.net.ssl.SSLException) return "tls";
      if (cause instanceof SocketException && String.valueOf(cause.getMessage()).contains("reset")) return "reset";
    }
    return "other";
  }

  private static String time() {
    Instant now = Instant.now();
    return String.format("%d.%06d", now.getEpochSecond(), now.getNano() / 1000);
  }

  public static void main(String[] args) throws Exception {
    String url = null, api = "urlconnection";
    double interval = 1;
    int count = 1;
    Double timeout = null;
    for (int i = 0; i < args.length; ++i) {
      switch (args[i]) {
        case "--interval": interval = Double.parseDouble(args[++i]); break;
        case "--count": count = Integer.parseInt(args[++i]); break;
        case "--connect-timeout": timeout = Double.parseDouble(args[++i]); break;
        case "--api": api = args[++i]; break;
        case "--version":
          System.out.println(System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
          return;
        default: url = args[i];
      }
    }
    HttpClient client = null;
    if (api.equals("httpclient")) {
      HttpClient.Builder builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1);
      if (timeout != null) builder.connectTimeout(Duration.ofMillis((long) (timeout * 1000)));
      client = builder.build();
    }
    long begin = System.nanoTime();
    for (int index = 0; index < count; ++index) {
      long slot = begin + (long) (index * interval * 1e9);
      long delay = slot - System.nanoTime();
      if (delay > 0) Thread.sleep(delay / 1_000_000, (int) (delay % 1_000_000));
      String started = time();
      String peer = null, origin = null, error = null, detail = "";
      Boolean fresh = null;
      try {
        if (client != null) {
          HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
              HttpResponse.BodyHandlers.ofString());
          origin = response.body().trim();
          peer = response.headers().firstValue("X-Lab-Local").orElse(null);
          fresh = response.headers().firstValue("X-Lab-Connection-Request").map(v -> v.equals("1")).orElse(null);
          detail = String.valueOf(response.statusCode());
        } else {
          HttpURLConnection connection = (HttpURLConnection) new URL(url).openConnection();
          if (timeout != null) connection.setConnectTimeout((int) (timeout * 1000));
          try (InputStream in = connection.getInputStream()) {
            origin = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
          }
          peer = connection.getHeaderField("X-Lab-Local");
          String on = connection.getHeaderField("X-Lab-Connection-Request");
          fresh = on == null ? null : on.equals("1");
          detail = String.valueOf(connection.getResponseCode());
        }
      } catch (Exception e) {
        error = kind(e);
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        detail = e.getClass().getSimpleName() + ": " + e.getMessage()
            + (root != e ? " (" + root.getClass().getName() + ": " + root.getMessage() + ")" : "");
        if (detail.length() > 200) detail = detail.substring(0, 200);
      }
      System.out.println("{\"t\": " + started + ", \"peer\": " + quote(peer) + ", \"new_conn\": "
          + (fresh == null ? "null" : fresh.toString()) + ", \"origin\": " + quote(origin) + ", \"error\": "
          + quote(error) + ", \"detail\": " + quote(detail) + "}");
      System.out.flush();
    }
  }
}
