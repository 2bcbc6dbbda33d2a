package io.skippr.connect.it.soak;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.AxisSpace;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Draws the soak's samples as one PNG (JFreeChart, headless): a panel per group of series over the
 * minutes of the run, with the warm-up shaded grey, each kill a red line and the time until its
 * successor settled shaded red (those samples are not judged), and dotted lines at the thirds the
 * verdict compares.
 */
public final class SoakChart {
  private static final int WIDTH = 1400;
  private static final int PANEL_HEIGHT = 270;
  private static final double AXIS_WIDTH = 70;
  private static final int HEADER_HEIGHT = 70;

  /** One panel: its title and the columns it draws. */
  public record Panel(String title, List<String> columns) {}

  private SoakChart() {}

  /** Writes the chart of {@code panels} to {@code png}. */
  public static void write(
      Path png,
      Samples samples,
      List<Panel> panels,
      SoakSettings settings,
      String title,
      String subtitle)
      throws IOException {
    System.setProperty("java.awt.headless", "true");
    BufferedImage image =
        new BufferedImage(
            WIDTH, HEADER_HEIGHT + PANEL_HEIGHT * panels.size(), BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, image.getWidth(), image.getHeight());
      g.setColor(Color.BLACK);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
      g.drawString(title, 16, 28);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
      g.drawString(subtitle, 16, 52);
      for (int i = 0; i < panels.size(); i++) {
        JFreeChart chart = panel(samples, panels.get(i), settings);
        chart.draw(
            g, new Rectangle2D.Double(0, HEADER_HEIGHT + i * PANEL_HEIGHT, WIDTH, PANEL_HEIGHT));
      }
    } finally {
      g.dispose();
    }
    ImageIO.write(image, "png", png.toFile());
  }

  private static JFreeChart panel(Samples samples, Panel panel, SoakSettings settings) {
    double[] t = samples.column(Samples.TIME);
    XYSeriesCollection data = new XYSeriesCollection();
    for (String column : panel.columns()) {
      double[] values = samples.column(column);
      XYSeries series = new XYSeries(column, false, true);
      for (int i = 0; i < t.length; i++) {
        series.add(t[i] / 60, values[i]); // NaN (worker down) leaves a gap
      }
      data.addSeries(series);
    }
    NumberAxis minutes = new NumberAxis("minutes since the load started");
    minutes.setRange(0, settings.duration().toMillis() / 60_000.0);
    NumberAxis values = new NumberAxis();
    values.setAutoRangeIncludesZero(true);
    XYLineAndShapeRenderer lines = new XYLineAndShapeRenderer(true, false);
    for (int s = 0; s < panel.columns().size(); s++) {
      lines.setSeriesStroke(s, new BasicStroke(1.6f));
    }
    XYPlot plot = new XYPlot(data, minutes, values, lines);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    AxisSpace left = new AxisSpace();
    left.setLeft(AXIS_WIDTH); // the same for every panel, so that their minutes line up
    plot.setFixedRangeAxisSpace(left);
    mark(plot, samples, settings);
    JFreeChart chart = new JFreeChart(plot);
    chart.setTitle(new TextTitle(panel.title(), new Font(Font.SANS_SERIF, Font.BOLD, 13)));
    chart.getLegend().setPosition(RectangleEdge.BOTTOM);
    chart.setBackgroundPaint(Color.WHITE);
    return chart;
  }

  private static void mark(XYPlot plot, Samples samples, SoakSettings settings) {
    double warmup = settings.warmup().toMillis() / 60_000.0;
    double end = settings.duration().toMillis() / 60_000.0;
    double settle = settings.settle().toMillis() / 60_000.0;
    IntervalMarker warm = new IntervalMarker(0, warmup, new Color(0, 0, 0, 28));
    plot.addDomainMarker(warm, Layer.BACKGROUND);
    for (Samples.Kill kill : samples.kills()) {
      double from = kill.killedAt() / 60;
      double to = Double.isNaN(kill.readyAt()) ? end : kill.readyAt() / 60 + settle;
      plot.addDomainMarker(
          new IntervalMarker(from, Math.min(to, end), new Color(220, 0, 0, 30)), Layer.BACKGROUND);
      ValueMarker line = new ValueMarker(from, new Color(200, 0, 0), new BasicStroke(1.2f));
      plot.addDomainMarker(line, Layer.FOREGROUND);
    }
    BasicStroke dotted =
        new BasicStroke(
            1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f, new float[] {3, 3}, 0);
    for (int third = 1; third <= 2; third++) {
      double at = warmup + (end - warmup) * third / 3;
      plot.addDomainMarker(new ValueMarker(at, Color.GRAY, dotted), Layer.FOREGROUND);
    }
  }
}
