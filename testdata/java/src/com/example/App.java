package com.example;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class App {
    public static void main(String[] args) {
        String greeting = "hello";
        int[] numbers = {3, 1, 4, 1, 5};
        List<String> names = new ArrayList<>();
        names.add("ada");
        names.add("bob");
        Map<String, Integer> ages = new HashMap<>();
        ages.put("ada", 36);
        Integer boxed = 7;
        Point origin = new Point("origin", 1, 2);
        origin.next = new Point("far", 30, 40);
        int total = 0;
        for (int i = 0; i < numbers.length; i++) {
            total += Scale.weigh(numbers[i], 10);
            System.out.println("item " + i + " total " + total);
        }
        System.out.println("done " + greeting + " " + names.size() + " " + ages.size() + " " + boxed + " " + origin);
        System.exit(total % 9);
    }
}
