package com.example;

public class Point {
    final String name;
    final int x;
    final int y;
    Point next;

    Point(String name, int x, int y) {
        this.name = name;
        this.x = x;
        this.y = y;
    }

    int sum() {
        return x + y;
    }

    @Override
    public String toString() {
        return name + "(" + x + "," + y + ")";
    }
}
