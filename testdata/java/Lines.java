enum Step {
    JOIN {
        String run(int i) {
            String text = String.join("\n", "line " + i, "tab\there", "quote \" end", "sep \u001e\u001f bell \u0007");
            return text;
        }
    },
    DONE {
        String run(int i) {
            return "done " + i;
        }
    };

    abstract String run(int i);
}

public class Lines {
    public static void main(String[] args) {
        int total = 0;
        for (int i = 0; i < 3; i++) {
            total += Step.JOIN.run(i).length();
        }
        System.out.println("total " + total + " " + Step.DONE.run(0) + " " + System.identityHashCode(args));
    }
}
