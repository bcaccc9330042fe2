// Reads its standard input (see README.md).
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;

public class Stdin {
    public static void main(String[] args) throws Exception {
        List<String> lines = new ArrayList<>();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String l = in.readLine(); l != null; l = in.readLine()) {
            lines.add(l);
        }
        System.out.println("read " + lines.size() + " lines, first " + (lines.isEmpty() ? "none" : lines.get(0)));
    }
}
