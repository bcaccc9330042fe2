// A tokenizer hands out one Token object and renames it for the next
// token, while a caller still holds it (jsoup's bug: a token renamed while
// still being processed several calls up). The open tag comes out named
// "close".
public class Tokens {
    static class Token {
        String name;

        Token(String name) {
            this.name = name;
        }

        public String toString() {
            return "Token(" + name + ")";
        }
    }

    static final Token shared = new Token("");

    static Token next(String name) {
        shared.name = name;
        return shared;
    }

    static String emit(Token tag) {
        Token closing = next("close");
        return tag.name + " then " + closing.name;
    }

    public static void main(String[] args) {
        Token open = next("open");
        String got = emit(open);
        if (!got.equals("open then close")) {
            throw new IllegalStateException("emitted " + got);
        }
        System.out.println(got);
    }
}
