package com.example.shop;

import com.example.pricing.Rates;

public class Checkout {
    static int total(int[] prices) {
        int sum = 0;
        for (int price : prices) {
            sum += Rates.withTax(price);
        }
        return sum;
    }

    public static void main(String[] args) {
        int[] prices = {100, 250};
        int taxed = total(prices);
        System.out.println("total " + taxed);
    }
}
