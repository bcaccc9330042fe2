package com.example.calc;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class PricesTest {
    @Test
    public void addsTenPercent() {
        int taxed = Prices.withTax(100);
        assertEquals("ten percent on 100", 110, taxed);
    }

    @Test
    public void freeStaysFree() {
        assertEquals(0, Prices.withTax(0));
    }
}
