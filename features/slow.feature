@slow
Feature: Slow content
  Web-first assertions wait for the page: no sleeps in the steps.

  Scenario: Content that appears after a delay
    Given I open the slow page with a delay of 3000 ms
    Then the page shows a progress bar
    And eventually the page shows "Loaded after 3000 ms"
    And the progress bar is gone

  Scenario: Waiting for an API response
    Given I open the slow page with a delay of 300 ms
    When I load the data and wait for the API response
    Then the API answered with status 200
    And the data result reads "Data loaded in 300 ms"
