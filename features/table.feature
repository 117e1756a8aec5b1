Feature: Sortable table
  Clicking a column header sorts the team by that column, first ascending,
  then descending.

  Background:
    Given I open the team table

  Scenario: The table before sorting
    Then the team table is:
      | Name     | Role       | Age | City     |
      | Grace    | Engineer   | 36  | New York |
      | Alan     | Researcher | 41  | London   |
      | Ada      | Analyst    | 28  | London   |
      | Linus    | Maintainer | 54  | Portland |
      | Margaret | Director   | 47  | Boston   |
    And the sort status reads "Unsorted"

  Scenario: Sorting by age
    When I sort the table by "Age"
    Then the team table is:
      | Name     | Role       | Age | City     |
      | Ada      | Analyst    | 28  | London   |
      | Grace    | Engineer   | 36  | New York |
      | Alan     | Researcher | 41  | London   |
      | Margaret | Director   | 47  | Boston   |
      | Linus    | Maintainer | 54  | Portland |
    And the "Age" column is sorted ascending

  Scenario Outline: Sorting by <column> twice reverses the order
    When I sort the table by "<column>"
    And I sort the table by "<column>"
    Then the "<column>" column is sorted descending
    And the sort status reads "Sorted by <column> (descending)"
    And the first row starts with "<first>"

    Examples:
      | column | first    |
      | Name   | Margaret |
      | Age    | Linus    |
      | City   | Linus    |
