package com.example;

public class Scale {
    public static int weigh(int item, int factor) {
        int scaled = item * factor;
        String label = "w" + scaled;
        return scaled + label.length() - label.length();
    }
}
