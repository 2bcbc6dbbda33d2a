package io.skippr.connect.lake.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.CompletedPart;

class S3UploadTest {
  @Test
  void theMultipartEtagIsTheMd5OfThePartMd5sAndTheirCount() throws Exception {
    MessageDigest md5 = MessageDigest.getInstance("MD5");
    byte[] a = md5.digest("part one".getBytes(StandardCharsets.UTF_8));
    byte[] b = md5.digest("part two".getBytes(StandardCharsets.UTF_8));
    md5.update(a);
    md5.update(b);
    String expected = HexFormat.of().formatHex(md5.digest()) + "-2";
    List<CompletedPart> parts =
        List.of(
            CompletedPart.builder()
                .partNumber(1)
                .eTag("\"" + HexFormat.of().formatHex(a) + "\"")
                .build(),
            CompletedPart.builder().partNumber(2).eTag(HexFormat.of().formatHex(b)).build());
    assertThat(S3Upload.multipartEtag(parts)).isEqualTo(expected);
  }

  @Test
  void anEtagThatIsNotAnMd5CannotBeChecked() {
    List<CompletedPart> parts =
        List.of(CompletedPart.builder().partNumber(1).eTag("\"kms-style-etag\"").build());
    assertThat(S3Upload.multipartEtag(parts)).isNull();
  }
}
